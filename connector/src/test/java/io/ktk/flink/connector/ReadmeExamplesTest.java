package io.ktk.flink.connector;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.KartothekCubeSink;
import io.ktk.flink.sink.KartothekSink;
import io.ktk.flink.sink.RejectedRecord;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.store.LocalObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every SQL and Java example of README.md, run exactly as printed: the SQL blocks are read from the
 * README and executed statement by statement; the Java blocks are the bodies between the {@code
 * README} markers below, and a test checks that the README holds them unchanged. The examples write
 * to {@code file:///tmp/ktk-readme}, which each test empties first.
 */
class ReadmeExamplesTest {
  private static final Path README = Path.of(System.getProperty("ktk.repo.root"), "README.md");
  private static final Path STORE = Path.of("/tmp/ktk-readme");
  private static final Pattern BLOCK = Pattern.compile("```(sql|java)\\n(.*?)```", Pattern.DOTALL);

  @RegisterExtension
  static final MiniClusterExtension FLINK = Sql.miniCluster();

  @BeforeEach
  void emptyTheStore() throws IOException {
    if (Files.exists(STORE)) {
      try (Stream<Path> files = Files.walk(STORE)) {
        for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(file);
        }
      }
    }
  }

  private static List<String> blocks(String language) throws IOException {
    List<String> blocks = new ArrayList<>();
    Matcher m = BLOCK.matcher(Files.readString(README));
    while (m.find()) {
      if (m.group(1).equals(language)) {
        blocks.add(m.group(2));
      }
    }
    return blocks;
  }

  @Test
  void theSqlExamplesRunAsPrinted() throws Exception {
    List<String> blocks = blocks("sql");
    assertThat(blocks).hasSize(3);
    StreamTableEnvironment tables = Sql.session(true);
    List<List<String>> results = new ArrayList<>();
    for (String block : blocks) {
      for (String statement : block.split(";\\s*\\n")) {
        if (statement.isBlank()) {
          continue;
        }
        TableResult result = tables.executeSql(statement);
        List<String> rows = new ArrayList<>();
        if (statement.strip().startsWith("INSERT")) {
          result.await();
        } else {
          try (CloseableIterator<Row> it = result.collect()) {
            it.forEachRemaining(row -> rows.add(row.toString()));
          }
        }
        results.add(rows);
      }
    }
    // events: CREATE, INSERT, SELECT; shops: CREATE, INSERT, SELECT; catalog: CREATE, USE, SHOW, SELECT
    assertThat(results).hasSize(10);
    assertThat(results.get(2)).containsExactly("+I[bob, 3.0]");
    assertThat(results.get(5)).containsExactly("+I[north, 1, 10]");
    assertThat(results.get(8)).contains("+I[events]", "+I[shops]", "+I[shops++seed]");
    assertThat(results.get(9)).containsExactlyInAnyOrder("+I[alice, 12.5]", "+I[bob, 3.0]");
  }

  @Test
  void theJavaExamplesAreTheOnesRunHere() throws IOException {
    String source = Files.readString(Path.of("src/test/java/io/ktk/flink/connector/ReadmeExamplesTest.java"));
    List<String> tested = new ArrayList<>();
    Matcher m = Pattern.compile("// README begin\\n(.*?)\\n\\s*// README end", Pattern.DOTALL).matcher(source);
    while (m.find()) {
      tested.add(m.group(1).stripIndent().strip());
    }
    assertThat(tested).containsExactlyElementsOf(blocks("java").stream().map(String::strip).toList());
  }

  @Test
  void theDatasetSinkExampleRuns() throws Exception {
    StreamExecutionEnvironment env = batch();
    RowType rowType = (RowType) DataTypes.ROW(
        DataTypes.FIELD("day", DataTypes.DATE()),
        DataTypes.FIELD("customer", DataTypes.STRING()),
        DataTypes.FIELD("amount", DataTypes.DOUBLE())).getLogicalType();
    DataStream<RowData> rows = env.fromData(List.<RowData>of(
        GenericRowData.of((int) LocalDate.of(2024, 1, 1).toEpochDay(), StringData.fromString("alice"), 12.5),
        GenericRowData.of((int) LocalDate.of(2024, 1, 2).toEpochDay(), StringData.fromString("bob"), 3.0)),
        InternalTypeInfo.of(rowType));
    // README begin
    KartothekSink sink = KartothekSink.forRowData(rowType)        // rows of (day DATE, customer STRING, amount DOUBLE)
        .store("file:///tmp/ktk-readme")                          // or .store("s3://bucket/data", Map.of("region", "eu-west-1"))
        .dataset("events")
        .partitionBy("day")
        .indexBy("customer")
        .build();
    DataStream<RejectedRecord> rejected = sink.addTo(rows);   // dead letters, with the DEAD_LETTER policy
    // README end
    assertThat(rejected).isNotNull();
    env.execute("README: dataset sink");
    try (LocalObjectStore store = new LocalObjectStore(STORE)) {
      DatasetSnapshot events = DatasetSnapshot.latest(store, "events");
      assertThat(events.partitions()).hasSize(2);
      assertThat(events.indexColumns()).containsExactly("customer");
    }
  }

  @Test
  void theCubeSinkExampleRuns() throws Exception {
    StreamExecutionEnvironment env = batch();
    RowType seedRowType = (RowType) DataTypes.ROW(
        DataTypes.FIELD("day", DataTypes.STRING()),
        DataTypes.FIELD("store", DataTypes.BIGINT()),
        DataTypes.FIELD("product", DataTypes.BIGINT()),
        DataTypes.FIELD("qty", DataTypes.BIGINT())).getLogicalType();
    RowType weatherRowType = (RowType) DataTypes.ROW(
        DataTypes.FIELD("day", DataTypes.STRING()),
        DataTypes.FIELD("store", DataTypes.BIGINT()),
        DataTypes.FIELD("temp", DataTypes.DOUBLE())).getLogicalType();
    TypeInformation<RowData> seedInfo = InternalTypeInfo.of(seedRowType);
    DataStream<RowData> seedRows = env.fromData(List.<RowData>of(
        GenericRowData.of(StringData.fromString("d1"), 1L, 10L, 5L),
        GenericRowData.of(StringData.fromString("d1"), 2L, 10L, 7L)), seedInfo);
    DataStream<RowData> weatherRows = env.fromData(List.<RowData>of(
        GenericRowData.of(StringData.fromString("d1"), 1L, 21.5)), InternalTypeInfo.of(weatherRowType));
    // README begin
    KartothekCubeSink cube = KartothekCubeSink.forCube("sales")
        .store("file:///tmp/ktk-readme")
        .dimensionColumns("store", "product")
        .partitionColumns("day")
        .seed("seed", seedRowType)              // sales++seed: every dimension column, indexed
        .enrichment("weather", weatherRowType)  // sales++weather: day, store, its own payload
        .build();
    DataStream<RejectedRecord> rejected = cube.addTo(Map.of("seed", seedRows, "weather", weatherRows));
    // README end
    assertThat(rejected).isNotNull();
    env.execute("README: cube sink");
    try (LocalObjectStore store = new LocalObjectStore(STORE)) {
      assertThat(DatasetSnapshot.latest(store, "sales++seed").indexColumns()).containsExactly("product", "store");
      assertThat(DatasetSnapshot.latest(store, "sales++weather").partitions()).hasSize(1);
    }
  }

  private static StreamExecutionEnvironment batch() {
    return StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(Map.of(
        "execution.runtime-mode", "BATCH", "parallelism.default", "1", "restart-strategy.type", "none")));
  }
}
