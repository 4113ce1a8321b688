package io.ktk.flink.cli;

import static io.ktk.flink.cli.KtkRun.ktk;
import static io.ktk.flink.state.testing.TestDataset.field;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.KartothekCubeSink;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.TestDataset;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ktk compact} on a dataset and on a cube written by the cube sink. */
class CompactCommandTest {
  private static final Schema EVENTS = new Schema(List.of(
      field("p", new ArrowType.Int(64, true)),
      field("id", new ArrowType.Int(64, true)),
      field("c", new ArrowType.Int(64, true)),
      field("s", ArrowType.Utf8.INSTANCE)));

  @TempDir Path dir;

  /** Ten appends of rows in partitions p=1 and p=2, then the view published. */
  private void writeEvents(LocalObjectStore store) throws IOException {
    TestDataset events = TestDataset.create(store, "events", EVENTS, List.of("p"), List.of("c"));
    for (long append = 0; append < 10; append++) {
      List<List<Object>> rows = new ArrayList<>();
      for (long id = append * 10; id < append * 10 + 10; id++) {
        rows.add(Arrays.asList(1 + id % 2, id, id % 3, id % 4 == 0 ? null : "s" + id));
      }
      events.append(rows);
    }
    events.publish();
  }

  private static List<String> sortedLines(String text) {
    return text.lines().sorted().toList();
  }

  @Test
  void dryRunShowsWhatWouldBeRewrittenAndChangesNothing() throws IOException {
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      writeEvents(store);
      long version = new LogReader(store, "events").latest().version();

      KtkRun run = ktk("compact", "--store", dir.toUri().toString(), "--dataset", "events", "--dry-run");

      assertThat(run.exitCode()).as(run.toString()).isZero();
      assertThat(run.out()).startsWith("dataset events at version 9: would rewrite 20 files (")
          .contains(" of 2 partitions into 2\n")
          .containsPattern("  p=1 +10 +[0-9.]+ KiB +1 +~[0-9.]+ KiB +10 small files\n")
          .containsPattern("  p=2 +10 +[0-9.]+ KiB +1 +~[0-9.]+ KiB +10 small files\n");
      assertThat(new LogReader(store, "events").latest().version()).isEqualTo(version);
    }
  }

  @Test
  void compactsThePartitionsTheConditionAdmitsKeepingEveryRow() throws IOException {
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      writeEvents(store);
      String url = dir.toUri().toString();
      String before = ktk("read", "--store", url, "--dataset", "events").out();

      KtkRun run = ktk("compact", "--store", url, "--dataset", "events", "--where", "p == 2");

      assertThat(run.exitCode()).as(run.toString()).isZero();
      assertThat(run.out()).startsWith("dataset events at version 9: rewriting 10 files (")
          .containsPattern("  p=2 +10 +[0-9.]+ KiB +1 +[0-9.]+ KiB +committed in version 10 \\(10 files into 1\\)\n")
          .contains("  published version 10 for plateau readers\n")
          .doesNotContain("p=1");
      DatasetState state = new LogReader(store, "events").latest();
      assertThat(state.labelsIn("p=1")).hasSize(10);
      assertThat(state.labelsIn("p=2")).hasSize(1);
      assertThat(sortedLines(ktk("read", "--store", url, "--dataset", "events").out()))
          .isEqualTo(sortedLines(before));
      assertThat(ktk("read", "--store", url, "--dataset", "events", "--where", "c == 1").out().lines().count())
          .isEqualTo(1 + 33);

      KtkRun again = ktk("compact", "--store", url, "--dataset", "events", "--where", "p == 2");
      assertThat(again.out()).isEqualTo("dataset events at version 10: nothing to compact\n");
    }
  }

  @Test
  void aConditionOnAColumnThatIsNoPartitionColumnIsBadUsage() throws IOException {
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      writeEvents(store);

      KtkRun run = ktk("compact", "--store", dir.toUri().toString(), "--dataset", "events", "--where", "c == 1");

      assertThat(run.exitCode()).as(run.toString()).isEqualTo(Ktk.USAGE);
      assertThat(run.err()).startsWith("Invalid value for option '--where': column 'c' is not a partition column of "
          + "dataset 'events' (partition columns: [p]); compaction selects whole partitions\n");
    }
  }

  // --- a cube written by the cube sink

  private static final RowType SEED = (RowType) DataTypes.ROW(
      DataTypes.FIELD("day", DataTypes.STRING()),
      DataTypes.FIELD("store", DataTypes.BIGINT()),
      DataTypes.FIELD("product", DataTypes.BIGINT()),
      DataTypes.FIELD("qty", DataTypes.BIGINT())).getLogicalType();
  private static final RowType WEATHER = (RowType) DataTypes.ROW(
      DataTypes.FIELD("day", DataTypes.STRING()),
      DataTypes.FIELD("store", DataTypes.BIGINT()),
      DataTypes.FIELD("temp", DataTypes.DOUBLE())).getLogicalType();

  /**
   * One run of the cube sink (a version of each dataset): seed cells {@code run * 100 ..
   * run * 100 + 299}, so runs overwrite each other's cells, with a quantity that tells the run, and
   * the weather of every store and day, a temperature that tells the run.
   */
  private void writeCube(long run) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(Map.of(
        "execution.runtime-mode", "BATCH", "parallelism.default", "2")));
    List<Long> seed = LongStream.range(run * 100, run * 100 + 300).boxed().toList();
    List<Long> weather = LongStream.range(0, 30).boxed().toList();
    KartothekCubeSink.forCube("sales")
        .store(dir.toUri().toString())
        .dimensionColumns("store", "product")
        .partitionColumns("day")
        .seed("seed", SEED)
        .enrichment("weather", WEATHER)
        .build()
        .addTo(Map.of(
            "seed", env.fromData(seed).map(i -> (RowData) GenericRowData.of(day(i), i / 50, i % 50, i + 10_000 * run),
                InternalTypeInfo.of(SEED)),
            "weather", env.fromData(weather).map(w -> (RowData) GenericRowData.of(day(w), w / 3, w + run / 10.0),
                InternalTypeInfo.of(WEATHER))));
    env.execute("cube run " + run);
  }

  private static StringData day(long i) {
    return StringData.fromString("d" + (i % 3));
  }

  @Test
  void everyDatasetOfACubeCompactsAndCubeQueriesAnswerAsBefore() throws Exception {
    for (long run = 0; run < 3; run++) {
      writeCube(run);
    }
    String url = dir.toUri().toString();
    List<String[]> queries = List.of(
        new String[] {},
        new String[] {"--where", "qty >= 20000"},
        new String[] {"--columns", "day,store,product,temp"},
        new String[] {"--where", "temp > 10 and day == 'd1'", "--columns", "store,product,qty,temp"});
    List<String> before = new ArrayList<>();
    for (String[] query : queries) {
      KtkRun run = ktk(concat(new String[] {"query", "--store", url, "--cube", "sales"}, query));
      assertThat(run.exitCode()).as(run.toString()).isZero();
      before.add(run.out());
    }
    assertThat(before.get(1).lines().count()).as("cells whose newest row is from the last run").isEqualTo(1 + 300);
    int filesBefore;
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      filesBefore = new LogReader(store, "sales++seed").latest().files().size();
    }

    KtkRun compact = ktk("compact", "--store", url, "--cube", "sales", "--min-input-files", "2");

    assertThat(compact.exitCode()).as(compact.toString()).isZero();
    assertThat(compact.out()).contains("dataset sales++seed at version 2: rewriting ")
        .contains("dataset sales++weather at version 2: rewriting ")
        .containsPattern("  day=d0 +[0-9]+ .+ +1 +.+committed in version 3");
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      DatasetState seed = new LogReader(store, "sales++seed").latest();
      assertThat(seed.files()).hasSize(3).hasSizeLessThan(filesBefore);
      assertThat(seed.files().values().stream().mapToLong(f -> f.rows()).sum()).as("one row per cell").isEqualTo(500);
      assertThat(new LogReader(store, "sales++weather").latest().files()).hasSize(3);
    }
    for (int q = 0; q < queries.size(); q++) {
      KtkRun run = ktk(concat(new String[] {"query", "--store", url, "--cube", "sales"}, queries.get(q)));
      assertThat(run.out()).as("query %s", Arrays.toString(queries.get(q))).isEqualTo(before.get(q));
    }
  }

  private static String[] concat(String[] a, String[] b) {
    String[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
