package io.ktk.flink.sink.compaction;

import io.ktk.flink.sink.compaction.CompactionResult.Outcome;
import io.ktk.flink.sink.compaction.CompactionResult.PartitionResult;
import io.ktk.flink.sink.compaction.OutputFileWriter.WrittenFile;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files a batch of partition rewrites wrote, on their way to one rewrite version: the change
 * that commits them, the checks before it, and what becomes of them when it fails.
 */
final class RewrittenBatch {
  private static final Logger LOG = LoggerFactory.getLogger(RewrittenBatch.class);

  private final ObjectStore store;
  private final String uuid;
  private final List<PartitionRewrite> rewrites;
  private final Map<PartitionRewrite, List<WrittenFile>> written = new LinkedHashMap<>();

  RewrittenBatch(ObjectStore store, String uuid, List<PartitionRewrite> rewrites) {
    this.store = store;
    this.uuid = uuid;
    this.rewrites = List.copyOf(rewrites);
    rewrites.forEach(rewrite -> written.put(rewrite, new ArrayList<>()));
  }

  void add(PartitionRewrite rewrite, WrittenFile file) {
    written.get(rewrite).add(file);
  }

  List<String> partitions() {
    return rewrites.stream().map(PartitionRewrite::partition).toList();
  }

  int inputFiles() {
    return rewrites.stream().mapToInt(PartitionRewrite::inputFiles).sum();
  }

  long inputBytes() {
    return rewrites.stream().mapToLong(PartitionRewrite::inputBytes).sum();
  }

  int outputFiles() {
    return written.values().stream().mapToInt(List::size).sum();
  }

  /** The rewrite version's change: the inputs removed, the files written added with their sequences and index values. */
  DatasetChange change(RewriteLayout layout) {
    List<String> removed = new ArrayList<>();
    List<DataFile> added = new ArrayList<>();
    Map<String, Long> sequences = new HashMap<>();
    Map<String, Map<IndexValue, List<String>>> index = new LinkedHashMap<>();
    for (String column : layout.indexColumns()) {
      index.put(column, new HashMap<>());
    }
    for (PartitionRewrite rewrite : rewrites) {
      rewrite.inputs().forEach(input -> removed.add(input.label()));
      for (WrittenFile file : written.get(rewrite)) {
        added.add(file.file());
        sequences.put(file.file().label(), file.sequence());
        file.index().forEach((column, values) -> {
          Map<IndexValue, List<String>> labels = index.get(column);
          for (Object value : values) {
            labels.computeIfAbsent(IndexValue.of(value), v -> new ArrayList<>()).add(file.file().label());
          }
        });
      }
    }
    return DatasetChange.rewrite(layout.logicalSchema(), removed, added, sequences, index);
  }

  /** The key of the first file written that is gone, or null (one HEAD per file). */
  String firstMissing() throws IOException {
    for (List<WrittenFile> files : written.values()) {
      for (WrittenFile file : files) {
        String key = file.file().key(uuid);
        if (store.head(key).isEmpty()) {
          return key;
        }
      }
    }
    return null;
  }

  /** Whether {@code state} lists a file written, or removed one in a retained version: then their version landed. */
  boolean listedBy(DatasetState state) {
    return written.values().stream().flatMap(List::stream).map(file -> file.file().label())
        .anyMatch(label -> state.files().containsKey(label) || state.removedFiles().containsKey(label));
  }

  /** Deletes the files written, best effort (garbage collection deletes what is left). */
  void deleteAll() {
    for (List<WrittenFile> files : written.values()) {
      for (WrittenFile file : files) {
        String key = file.file().key(uuid);
        try {
          store.delete(key);
        } catch (IOException | RuntimeException e) {
          LOG.warn("Cannot delete {} of a failed compaction of dataset '{}'; garbage collection will", key, uuid, e);
        }
      }
    }
  }

  /** The result of every partition of the batch. */
  List<PartitionResult> results(Outcome outcome, long version, String message) {
    List<PartitionResult> results = new ArrayList<>();
    for (PartitionRewrite rewrite : rewrites) {
      List<WrittenFile> files = written.get(rewrite);
      long rowsIn = files.stream().mapToLong(WrittenFile::rowsIn).sum();
      results.add(new PartitionResult(rewrite.partition(), outcome, version, rewrite.filesBefore(),
          rewrite.bytesBefore(), rewrite.inputFiles(), rewrite.inputBytes(), rowsIn, files.size(),
          files.stream().mapToLong(f -> f.file().bytes()).sum(), files.stream().mapToLong(f -> f.file().rows()).sum(),
          message));
    }
    return results;
  }
}
