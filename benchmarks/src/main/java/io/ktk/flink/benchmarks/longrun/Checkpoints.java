package io.ktk.flink.benchmarks.longrun;

import io.ktk.flink.benchmarks.longrun.TinyFiles.TinyFile;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.metadata.PartitionLabel;
import io.ktk.flink.state.store.LocalObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * What the writers of the simulated job do at each checkpoint: {@value #WRITER_SUBTASKS} writer
 * subtasks each write one file into each of {@value #PARTITIONS_PER_CHECKPOINT} partitions of the
 * current day (of {@value TinyFiles#REGIONS} regions, chosen at random per checkpoint), and the
 * committer commits them as one append with their index values, under the sink's writer id and the
 * checkpoint id, as {@code KartothekCommitter} does with the aggregated batch.
 *
 * <p>As a job's writers run beside its committer, the simulation writes a checkpoint's files on
 * a thread of its own while the previous checkpoint is committed, published and maintained.
 *
 * <p>The files are written straight into the store's directory (one write and the simulated
 * modification time), not through {@link io.ktk.flink.state.store.ObjectStore#put}'s temporary
 * file and rename: the writers are not what the simulation measures, and 10 million files a year
 * make every system call count.
 */
final class Checkpoints {
  static final int WRITER_SUBTASKS = 2;
  static final int PARTITIONS_PER_CHECKPOINT = 10;
  static final int FILES_PER_CHECKPOINT = WRITER_SUBTASKS * PARTITIONS_PER_CHECKPOINT;

  private final Path root;
  private final String uuid;
  private final String writerId;
  private final TinyFiles tinyFiles;
  private final Random random;
  private final List<Field> keyFields;
  private final List<Integer> regions = new ArrayList<>();
  private final Set<Path> directories = new HashSet<>();

  Checkpoints(LocalObjectStore store, String uuid, String writerId, TinyFiles tinyFiles, long seed) {
    this.root = store.root();
    this.uuid = uuid;
    this.writerId = writerId;
    this.tinyFiles = tinyFiles;
    this.random = new Random(seed);
    this.keyFields = TinyFiles.PARTITION_KEYS.stream().map(TinyFiles.SCHEMA::findField).toList();
    for (int r = 0; r < TinyFiles.REGIONS; r++) {
      regions.add(r);
    }
  }

  /**
   * Writes the files of checkpoint {@code checkpointId} of day {@code day}, stamped {@code time}
   * (the simulated time of the checkpoint); returns the change to commit. Calls must come in
   * checkpoint order (the choice of partitions and files follows one seeded random sequence), from
   * one thread at a time.
   */
  DatasetChange write(long checkpointId, LocalDate day, Instant time) throws IOException {
    Collections.shuffle(regions, random);
    List<DataFile> files = new ArrayList<>(FILES_PER_CHECKPOINT);
    Map<IndexValue, List<String>> index = new HashMap<>();
    for (int subtask = 0; subtask < WRITER_SUBTASKS; subtask++) {
      for (int p = 0; p < PARTITIONS_PER_CHECKPOINT; p++) {
        int region = regions.get(p);
        TinyFile tiny = tinyFiles.pick(region, random);
        String label = PartitionLabel.of(keyFields, List.of(day, TinyFiles.region(region)), PartitionLabel.newFileId())
            .toString();
        writeFile(uuid + "/table/" + label + ".parquet", tiny.bytes(), time);
        files.add(new DataFile(label, TinyFiles.ROWS_PER_FILE, tiny.bytes().length, TinyFiles.PHYSICAL));
        for (long customer : tiny.customers()) {
          index.computeIfAbsent(IndexValue.of(customer), v -> new ArrayList<>()).add(label);
        }
      }
    }
    return DatasetChange.append(TinyFiles.PARTITION_KEYS, TinyFiles.SCHEMA, files)
        .withIndex(List.of(TinyFiles.INDEX_COLUMN), Map.of(TinyFiles.INDEX_COLUMN, index))
        .withWriter(writerId, checkpointId);
  }

  private void writeFile(String key, byte[] bytes, Instant time) throws IOException {
    Path path = root.resolve(key);
    if (directories.add(path.getParent())) {
      Files.createDirectories(path.getParent());
    }
    Files.write(path, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    Files.setLastModifiedTime(path, FileTime.from(time));
  }

  /** Rows of the first {@code checkpoints} checkpoints: what the latest version must hold, compacted or not. */
  static long rowsOf(long checkpoints) {
    return checkpoints * FILES_PER_CHECKPOINT * TinyFiles.ROWS_PER_FILE;
  }
}
