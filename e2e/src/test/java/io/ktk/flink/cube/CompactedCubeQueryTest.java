package io.ktk.flink.cube;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.compaction.CompactionPlan;
import io.ktk.flink.sink.compaction.CompactionResult;
import io.ktk.flink.sink.compaction.CompactionSettings;
import io.ktk.flink.sink.compaction.Compactor;
import io.ktk.flink.sink.compaction.CompactionInput;
import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.metadata.CubeMetadataKeys;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.metadata.PartitionLabel;
import io.ktk.flink.state.parquet.ParquetRowsWriter;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.store.LocalObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cube reader's answers across compactions of a seed whose cell x=1 is written in versions 1,
 * 2 and 3 (versions 0 and 3 hold large files): compacting versions 1 and 2 leaves the answer at
 * version 3's value, and so does compacting everything.
 */
class CompactedCubeQueryTest {
  private static final Schema SCHEMA = new Schema(List.of(field("p", new ArrowType.Int(64, true)),
      field("x", new ArrowType.Int(64, true)), field("v", ArrowType.Utf8.INSTANCE)));
  private static final int FILLER = 20_000;

  @TempDir Path dir;

  private static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.nullable(type), null);
  }

  /** Commits one file of partition p=1 with cells {@code xs} valued {@code value-x}; returns it. */
  private static DataFile version(LocalObjectStore store, CommitLog log, String value, List<Long> xs)
      throws IOException {
    PartitionLabel label = PartitionLabel.of(List.of(SCHEMA.findField("p")), List.of(1L), PartitionLabel.newFileId());
    String key = "cube++seed/table/" + label + ".parquet";
    Schema data = new Schema(SCHEMA.getFields().subList(1, 3));
    Map<IndexValue, List<String>> index = new HashMap<>();
    try (ParquetRowsWriter writer = ParquetRowsWriter.create(store, key, data, Map.of(), ParquetWriteOptions.defaults())) {
      for (long x : xs) {
        writer.write(List.of(x, value + "-" + x + (x >= 1000 ? "-" + "z".repeat(20) : "")));
        index.computeIfAbsent(IndexValue.of(x), v -> new ArrayList<>(List.of(label.toString())));
      }
    }
    DataFile file = new DataFile(label.toString(), xs.size(), store.head(key).orElseThrow().size(), data);
    CubeSpec spec = CubeSpec.of("cube", List.of("x"), List.of("p"));
    DatasetChange request = DatasetChange.append(List.of("p"), SCHEMA, List.of(file))
        .withIndex(List.of("x"), Map.of("x", index));
    log.commit(log.state().exists() ? request : request.withMetadata(CubeMetadataKeys.datasetMetadata(spec, "seed")));
    return file;
  }

  private static List<Long> cells(long first, long count, long... more) {
    List<Long> xs = new ArrayList<>();
    for (long x = first; x < first + count; x++) {
      xs.add(x);
    }
    for (long x : more) {
      xs.add(x);
    }
    return xs;
  }

  private static List<List<Object>> answer(LocalObjectStore store, String where) throws IOException {
    List<List<Object>> rows = new ArrayList<>();
    CubeQuery query = CubeQuery.builder().where(where).columns("p", "x", "v").build();
    new CubeReader(store, CubeSnapshot.latest(store, "cube").plan(query)).rows().forEachRemaining(rows::add);
    return rows;
  }

  @Test
  void theReaderAnswersWithTheNewestRowAfterAPartialAndAFullCompaction() throws IOException {
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      CommitLog log = CommitLog.open(store, "cube++seed", CommitLogOptions.DEFAULTS);
      DataFile v0 = version(store, log, "v0", cells(1000, FILLER, 1, 2, 3));
      DataFile v1 = version(store, log, "v1", List.of(1L, 2L));
      DataFile v2 = version(store, log, "v2", List.of(1L, 4L));
      DataFile v3 = version(store, log, "v3", cells(100_000, FILLER, 1));
      log.publish(); // cube readers find the datasets of a cube by their metadata files
      List<List<Object>> before = answer(store, "x < 10");
      assertThat(before).containsExactly(List.of(1L, 1L, "v3-1"), List.of(1L, 2L, "v1-2"), List.of(1L, 3L, "v0-3"),
          List.of(1L, 4L, "v2-4"));

      long small = Math.max(v1.bytes(), v2.bytes()) + 1;
      assertThat(small).isLessThan(Math.min(v0.bytes(), v3.bytes()));
      Compactor partial = Compactor.of(store, "cube++seed",
          CompactionSettings.defaults().withMinInputFiles(2).withTargetFileSize((long) (small / 0.75) + 1));
      CompactionPlan plan = partial.plan();
      assertThat(plan.rewrites().get(0).inputs()).extracting(CompactionInput::label).containsExactly(v1.label(), v2.label());
      assertThat(partial.compact(plan).notCommitted()).isEmpty();
      assertThat(answer(store, "x < 10")).isEqualTo(before);

      Compactor full = Compactor.of(store, "cube++seed", CompactionSettings.defaults().withMinInputFiles(2));
      CompactionResult result = full.compact(full.plan());
      assertThat(result.notCommitted()).isEmpty();
      assertThat(result.filesWritten()).isEqualTo(1);
      assertThat(answer(store, "x < 10")).isEqualTo(before);
      assertThat(answer(store, "x == 1")).containsExactly(List.of(1L, 1L, "v3-1"));
      assertThat(answer(store, "x >= 1000").size()).isEqualTo(2 * FILLER);
    }
  }
}
