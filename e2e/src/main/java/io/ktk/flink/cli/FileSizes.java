package io.ktk.flink.cli;

import io.ktk.flink.state.commit.DataFile;
import java.util.Collection;

/**
 * A histogram of data file sizes in four classes, for {@code ktk stats} and {@code ktk info}: many
 * files in the small classes is what compaction ({@code ktk compact}) folds.
 */
final class FileSizes {
  /** The classes, as the header of the column that shows them. */
  static final String HEADER = "<1M/1-16M/16-128M/>=128M/?";
  private static final long MIB = 1024 * 1024;
  private final long[] counts = new long[5];

  static FileSizes of(Collection<DataFile> files) {
    FileSizes sizes = new FileSizes();
    sizes.addAll(files);
    return sizes;
  }

  void addAll(Collection<DataFile> files) {
    for (DataFile file : files) {
      counts[bucket(file.bytes())]++;
    }
  }

  private static int bucket(long bytes) {
    if (bytes < 0) {
      return 4;
    }
    if (bytes < MIB) {
      return 0;
    }
    if (bytes < 16 * MIB) {
      return 1;
    }
    return bytes < 128 * MIB ? 2 : 3;
  }

  /** The counts per class, in the order of {@link #HEADER}: small files first, unknown sizes last. */
  long[] counts() {
    return counts.clone();
  }

  @Override
  public String toString() {
    return counts[0] + "/" + counts[1] + "/" + counts[2] + "/" + counts[3] + "/" + counts[4];
  }
}
