package io.ktk.flink.cli;

import static io.ktk.flink.cli.KtkRun.ktk;
import static io.ktk.flink.state.testing.TestDataset.field;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.metadata.CubeMetadataKeys;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.testing.TestDataset;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ktk query} on Example 1 of Kartothek's query system documentation ("Examples"): a seed
 * {@code db_data} with cells P, and enrichments {@code data_checks} (OK), {@code schedule} (SCHED),
 * {@code predictions} (PRED). The example does not show a partition column; here {@code part = P % 2}.
 * Expected outputs are the example's result table, written out by hand.
 */
class QueryCommandTest {
  private static final Field PART = field("part", new ArrowType.Int(64, true));
  private static final Field P = field("P", new ArrowType.Int(64, true));
  private static final Field OK = field("OK", ArrowType.Bool.INSTANCE);
  private static final Field SCHED = field("SCHED", ArrowType.Bool.INSTANCE);
  private static final Field PRED = field("PRED", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
  private static final String CONDITION = "OK == true and SCHED == true";
  private static final String NL = System.lineSeparator();

  @TempDir Path dir;
  ObjectStore store;
  String url;

  @BeforeEach
  void writeCube() throws IOException {
    store = new LocalObjectStore(dir);
    url = dir.toUri().toString();
    CubeSpec spec = new CubeSpec("ex1", List.of("P"), List.of("part"), "db_data", new TreeSet<>());
    commit(store, spec, "db_data", new Schema(List.of(PART, P)), List.of("P"),
        List.of(row(1L, 1L), row(0L, 2L), row(1L, 3L), row(1L, 5L), row(0L, 6L)));
    commit(store, spec, "data_checks", new Schema(List.of(PART, P, OK)), List.of(),
        List.of(row(1L, 1L, true), row(0L, 2L, false), row(1L, 3L, true), row(0L, 4L, true), row(1L, 5L, true),
            row(0L, 6L, true)));
    commit(store, spec, "schedule", new Schema(List.of(PART, P, SCHED)), List.of(),
        List.of(row(1L, 1L, true), row(0L, 2L, true), row(1L, 3L, false), row(0L, 4L, true), row(1L, 5L, true)));
    commit(store, spec, "predictions", new Schema(List.of(PART, P, PRED)), List.of(),
        List.of(row(1L, 1L, 0.23), row(0L, 2L, 0.12), row(1L, 3L, 0.13), row(0L, 4L, 0.03), row(0L, 6L, 0.01)));
  }

  private static void commit(ObjectStore store, CubeSpec spec, String id, Schema schema, List<String> indexColumns,
      List<List<Object>> rows) throws IOException {
    TestDataset dataset = TestDataset.create(store, spec.datasetUuid(id), schema, spec.partitionColumns(),
        indexColumns);
    dataset.withMetadata(Map.copyOf(CubeMetadataKeys.datasetMetadata(spec, id))).append(rows);
    dataset.publish();
  }

  private static List<Object> row(Object... values) {
    return Arrays.asList(values);
  }

  @Test
  void csvIsTheSeedExampleResultWithAHeaderAndAnEmptyFieldForTheMissingPrediction() {
    KtkRun run = ktk("query", "--store", url, "--cube", "ex1", "--columns", "P,PRED", "--where", CONDITION,
        "--format", "csv");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).isEqualTo("P,PRED\r\n1,0.23\r\n5,\r\n");
    assertThat(run.err()).isEmpty();
  }

  @Test
  void csvIsTheDefaultFormat() {
    KtkRun run = ktk("query", "--store", url, "--cube", "ex1", "--columns", "P,PRED", "--where", CONDITION);

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).isEqualTo("P,PRED\r\n1,0.23\r\n5,\r\n");
  }

  @Test
  void jsonLinesWriteNullForTheMissingPrediction() {
    KtkRun run = ktk("query", "--store", url, "--cube", "ex1", "--columns", "P,PRED", "--where", CONDITION,
        "--format", "jsonl");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).isEqualTo("{\"P\":1,\"PRED\":0.23}\n{\"P\":5,\"PRED\":null}\n");
  }

  @Test
  void tableAlignsColumnsUnderAHeaderWithNumbersRightAlignedAndNullsBlank() {
    KtkRun run = ktk("query", "--store", url, "--cube", "ex1", "--columns", "PRED,P", "--where", CONDITION,
        "--format", "table");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).isEqualTo(
        "PRED  P" + NL
            + "0.23  1" + NL
            + "      5" + NL);
  }

  @Test
  void withoutColumnsAndConditionsEverySeedCellComesPartitionByPartitionWithTheDefaultColumns() {
    KtkRun run = ktk("query", "--store", url, "--cube", "ex1");

    // Partition columns, dimension columns, then payload by name; part=0 before part=1, cells by P.
    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).isEqualTo(
        "part,P,OK,PRED,SCHED\r\n"
            + "0,2,false,0.12,true\r\n"
            + "0,6,true,0.01,\r\n"
            + "1,1,true,0.23,true\r\n"
            + "1,3,true,0.13,false\r\n"
            + "1,5,true,,true\r\n");
  }

  @Test
  void asOfQueriesTheCubeAsItWasThen() throws IOException {
    CubeSpec spec = new CubeSpec("ex1", List.of("P"), List.of("part"), "db_data", new TreeSet<>());
    Instant lastCommit = Instant.EPOCH;
    for (String id : List.of("db_data", "data_checks", "schedule", "predictions")) {
      Instant committed = DatasetSnapshot.latest(store, spec.datasetUuid(id)).committedAt();
      lastCommit = committed.isAfter(lastCommit) ? committed : lastCommit;
    }
    Instant then = lastCommit.plusMillis(1);
    while (!Instant.now().isAfter(then)) {
      Thread.onSpinWait(); // the commits below must come after 'then'
    }
    // later: a new seed cell P=7, and P=1's prediction overwritten
    commit(store, spec, "db_data", new Schema(List.of(PART, P)), List.of("P"), List.of(row(1L, 7L)));
    commit(store, spec, "predictions", new Schema(List.of(PART, P, PRED)), List.of(), List.of(row(1L, 1L, 0.99)));

    KtkRun asOf = ktk("query", "--store", url, "--cube", "ex1", "--columns", "P,PRED", "--as-of", then.toString());
    KtkRun latest = ktk("query", "--store", url, "--cube", "ex1", "--columns", "P,PRED");

    assertThat(asOf.exitCode()).as(asOf.toString()).isZero();
    assertThat(asOf.out()).isEqualTo("P,PRED\r\n2,0.12\r\n6,0.01\r\n1,0.23\r\n3,0.13\r\n5,\r\n");
    assertThat(latest.out()).isEqualTo("P,PRED\r\n2,0.12\r\n6,0.01\r\n1,0.99\r\n3,0.13\r\n5,\r\n7,\r\n");
    KtkRun before = ktk("query", "--store", url, "--cube", "ex1", "--as-of", "2000-01-01T00:00:00Z");
    assertThat(before.exitCode()).isEqualTo(Ktk.ERROR);
    assertThat(before.err()).contains("cube 'ex1'", "as of 2000-01-01T00:00:00Z",
        "none of its datasets had a version committed by then");
    assertThat(ktk("query", "--store", url, "--cube", "ex1", "--as-of", "yesterday").err())
        .contains("'yesterday' is not an ISO-8601 instant");
  }

  @Test
  void limitPrintsTheFirstRowsInQueryOrder() {
    KtkRun run = ktk("query", "--store", url, "--cube", "ex1", "--columns", "part,P", "--limit", "3");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).isEqualTo("part,P\r\n0,2\r\n0,6\r\n1,1\r\n");
    assertThat(ktk("query", "--store", url, "--cube", "ex1", "--limit", "0").out()).isEqualTo("part,P,OK,PRED,SCHED\r\n");
    assertThat(ktk("query", "--store", url, "--cube", "ex1", "--limit", "-1").exitCode()).isEqualTo(Ktk.USAGE);
  }

  @Test
  void partitionByAnIndexedColumnGroupsTheRowsByItsValues() {
    KtkRun run = ktk("query", "--store", url, "--cube", "ex1", "--columns", "P,part", "--partition-by", "P",
        "--where", "P >= 2");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).isEqualTo("P,part\r\n2,0\r\n3,1\r\n5,1\r\n6,0\r\n");
  }

  @Test
  void aConditionOnThePartitionColumnSkipsTheOtherPartitionsWithoutReadingThem() throws IOException {
    // Every data file of partition part=0 becomes unreadable: reading one would fail the query.
    List<String> keys = new ArrayList<>();
    store.list("ex1++").forEachRemaining(info -> {
      if (info.key().contains("/table/part=0/") && info.key().endsWith(".parquet")) {
        keys.add(info.key());
      }
    });
    assertThat(keys).hasSize(4);
    for (String key : keys) {
      store.put(key, "not parquet".getBytes(StandardCharsets.UTF_8));
    }

    KtkRun pruned = ktk("query", "--store", url, "--cube", "ex1", "--columns", "P,PRED", "--where", "part == 1");
    KtkRun all = ktk("query", "--store", url, "--cube", "ex1", "--columns", "P,PRED");

    assertThat(pruned.exitCode()).as(pruned.toString()).isZero();
    assertThat(pruned.out()).isEqualTo("P,PRED\r\n1,0.23\r\n3,0.13\r\n5,\r\n");
    assertThat(all.exitCode()).as(all.toString()).isEqualTo(Ktk.ERROR);
  }

  @Test
  void anUnknownColumnInWhereIsAnErrorNamingTheColumnAndPrintsNoRows() {
    KtkRun run = ktk("query", "--store", url, "--cube", "ex1", "--where", "NOPE == 1");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Ktk.ERROR);
    assertThat(run.err()).startsWith("Cannot query cube 'ex1'").contains("'NOPE'").doesNotContain("\tat ");
    assertThat(run.out()).isEmpty();
  }

  @Test
  void onlyTheGivenDatasetsAreUsedSoPredictionsAloneKeepEverySeedCell() {
    KtkRun run = ktk("query", "--store", url, "--cube", "ex1", "--columns", "P,PRED", "--datasets", "predictions");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).isEqualTo("P,PRED\r\n2,0.12\r\n6,0.01\r\n1,0.23\r\n3,0.13\r\n5,\r\n");
  }

  @Test
  void aConditionOnADatasetLeftOutIsAnError() {
    KtkRun run = ktk("query", "--store", url, "--cube", "ex1", "--datasets", "predictions", "--where", "OK == true");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Ktk.ERROR);
    assertThat(run.err()).startsWith("Cannot query cube 'ex1'").contains("OK");
  }

  @Test
  void anUnknownDimensionColumnIsAnError() {
    KtkRun run = ktk("query", "--store", url, "--cube", "ex1", "--dimension-columns", "Q");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Ktk.ERROR);
    assertThat(run.err()).startsWith("Cannot query cube 'ex1'").contains("'Q'");
  }

  @Test
  void aLiteralOfTheWrongTypeIsAnError() {
    KtkRun run = ktk("query", "--store", url, "--cube", "ex1", "--where", "P == 'x'");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Ktk.ERROR);
    assertThat(run.err()).startsWith("Cannot query cube 'ex1'").contains("'P'").contains("'x'");
  }

  @Test
  void anUnknownColumnInColumnsIsAnError() {
    KtkRun run = ktk("query", "--store", url, "--cube", "ex1", "--columns", "P,NOPE");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Ktk.ERROR);
    assertThat(run.err()).startsWith("Cannot query cube 'ex1'").contains("'NOPE'");
  }

  @Test
  void aCubeTheStoreDoesNotHoldIsAnError() {
    KtkRun run = ktk("query", "--store", url, "--cube", "nope");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Ktk.ERROR);
    assertThat(run.err()).contains("nope");
  }

  @Test
  void helpExplainsTheOptionsAndFormats() {
    KtkRun run = ktk("query", "--help");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).contains("--cube=NAME", "--where=EXPR", "--partition-by=COL", "--format=csv|jsonl|table",
        "--store-option=KEY=VALUE", "RFC 4180");
  }

  @Test
  void missingCubeIsBadUsage() {
    KtkRun run = ktk("query", "--store", url);

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Ktk.USAGE);
    assertThat(run.err()).contains("--cube");
  }

  @Test
  void anInvalidCubeNameOrFormatIsBadUsage() {
    KtkRun name = ktk("query", "--store", url, "--cube", "a++b");
    KtkRun format = ktk("query", "--store", url, "--cube", "ex1", "--format", "xml");

    assertThat(name.exitCode()).as(name.toString()).isEqualTo(Ktk.USAGE);
    assertThat(name.err()).contains("'a++b' is not a cube name");
    assertThat(format.exitCode()).as(format.toString()).isEqualTo(Ktk.USAGE);
    assertThat(format.err()).contains("xml");
  }
}
