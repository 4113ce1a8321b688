package io.ktk.flink.cli;

import static io.ktk.flink.cli.KtkRun.ktk;
import static io.ktk.flink.state.testing.TestDataset.field;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import io.ktk.flink.state.testing.S3Proxy;
import io.ktk.flink.state.testing.TestDataset;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code ktk read}: row and column order, CSV and JSON lines, conditions, pruning and errors. */
class ReadCommandTest {
  @RegisterExtension static final S3Proxy S3 = S3Proxy.inMemory();

  static final Schema SCHEMA = new Schema(List.of(
      field("p", new ArrowType.Int(64, true)),
      field("c", new ArrowType.Int(64, true)),
      field("s", ArrowType.Utf8.INSTANCE),
      field("v", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      field("d", new ArrowType.Date(DateUnit.DAY))));

  /** Partition p=10 is appended first and sorts first by label, but p=2 comes first by value. */
  static final List<List<Object>> ROWS = List.of(
      Arrays.asList(10L, 1L, "a", 0.5, LocalDate.of(2024, 1, 1)),
      Arrays.asList(10L, 2L, null, Double.NaN, LocalDate.of(2024, 1, 2)),
      Arrays.asList(2L, 3L, "x,y", -0.0, LocalDate.of(2024, 1, 3)),
      Arrays.asList(2L, 4L, "say \"hi\"", 1e20, null),
      Arrays.asList(2L, 5L, "", null, LocalDate.of(2024, 1, 5)));

  @TempDir Path dir;
  ObjectStore store;
  String url;
  List<DataFile> files;

  @BeforeEach
  void writeDataset() throws IOException {
    store = new LocalObjectStore(dir);
    url = dir.toUri().toString();
    files = createEvents(store);
  }

  static List<DataFile> createEvents(ObjectStore store) throws IOException {
    TestDataset events = TestDataset.create(store, "events", SCHEMA, List.of("p"), List.of("c"));
    List<DataFile> files = events.append(ROWS);
    events.publish();
    return files;
  }

  private DataFile fileOf(long p) {
    return files.stream().filter(f -> f.label().startsWith("p=" + p + "/")).findFirst().orElseThrow();
  }

  /** Replaces a data file by bytes that are not Parquet: reading it would fail. */
  private void corrupt(DataFile file) throws IOException {
    store.put(file.key("events"), "not parquet".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void versionAndAsOfReadEarlierVersions() throws IOException {
    TestDataset later = TestDataset.create(store, "events", SCHEMA, List.of("p"), List.of("c"));
    java.time.Instant between = io.ktk.flink.state.dataset.DatasetSnapshot.latest(store, "events").committedAt();
    later.append(List.of(Arrays.asList(2L, 6L, "new", 1.0, LocalDate.of(2024, 1, 6))));

    KtkRun latest = ktk("read", "--store", url, "--dataset", "events", "--columns", "c");
    KtkRun first = ktk("read", "--store", url, "--dataset", "events", "--columns", "c", "--version", "0");
    KtkRun asOf = ktk("read", "--store", url, "--dataset", "events", "--columns", "c", "--as-of", between.toString());
    KtkRun before = ktk("read", "--store", url, "--dataset", "events", "--as-of", "2000-01-01T00:00:00Z");

    // files of a partition come in label order, so the new file's place among them is random
    assertThat(latest.out().split("\r\n")).containsExactlyInAnyOrder("c", "1", "2", "3", "4", "5", "6");
    assertThat(first.out()).as(first.toString()).isEqualTo("c\r\n3\r\n4\r\n5\r\n1\r\n2\r\n");
    assertThat(asOf.out()).as(asOf.toString()).isEqualTo(first.out());
    assertThat(before.exitCode()).isEqualTo(Ktk.ERROR);
    assertThat(before.err()).contains("as of 2000-01-01T00:00:00Z: its first version was committed later");
    assertThat(ktk("read", "--store", url, "--dataset", "events", "--version", "0", "--as-of", "2000-01-01T00:00:00Z")
        .err()).contains("Give at most one of --version and --as-of");
    assertThat(ktk("read", "--store", url, "--dataset", "events", "--as-of", "yesterday").err())
        .contains("'yesterday' is not an ISO-8601 instant");
  }

  @Test
  void csvHasPartitionsInValueOrderPartitionKeysFirstThenColumnsByNameAndRfc4180Quoting() {
    KtkRun run = ktk("read", "--store", url, "--dataset", "events");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).isEqualTo(
        "p,c,d,s,v\r\n"
            + "2,3,2024-01-03,\"x,y\",-0.0\r\n"
            + "2,4,,\"say \"\"hi\"\"\",1e+20\r\n"
            + "2,5,2024-01-05,\"\",\r\n"
            + "10,1,2024-01-01,a,0.5\r\n"
            + "10,2,2024-01-02,,NaN\r\n");
  }

  @Test
  void jsonLinesKeepTheColumnsInTheOrderGivenWithNullsAndNanAsString() {
    KtkRun run = ktk("read", "--store", url, "--dataset", "events", "--columns", "v,s,p", "--format", "jsonl");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).isEqualTo(
        "{\"v\":-0.0,\"s\":\"x,y\",\"p\":2}\n"
            + "{\"v\":1e+20,\"s\":\"say \\\"hi\\\"\",\"p\":2}\n"
            + "{\"v\":null,\"s\":\"\",\"p\":2}\n"
            + "{\"v\":0.5,\"s\":\"a\",\"p\":10}\n"
            + "{\"v\":\"NaN\",\"s\":null,\"p\":10}\n");
  }

  @Test
  void conditionOnThePartitionColumnSkipsTheOtherPartitionsWithoutReadingThem() throws IOException {
    corrupt(fileOf(2));

    KtkRun run = ktk("read", "--store", url, "--dataset", "events", "--columns", "c", "--where", "p == 10");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).isEqualTo("c\r\n1\r\n2\r\n");
  }

  @Test
  void partitionColumnsAloneComeFromLabelsAndLoggedRowCountsWithoutReadingFiles() throws IOException {
    for (DataFile file : files) {
      corrupt(file);
    }

    KtkRun run = ktk("read", "--store", url, "--dataset", "events", "--columns", "p", "--where", "p != 3");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).isEqualTo("p\r\n2\r\n2\r\n2\r\n10\r\n10\r\n");
  }

  @Test
  void equalityOnAnIndexedColumnSkipsTheFilesTheIndexDoesNotList() throws IOException {
    corrupt(fileOf(10));

    KtkRun run = ktk("read", "--store", url, "--dataset", "events", "--columns", "c,s", "--where", "c in (4, 5)");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).isEqualTo("c,s\r\n4,\"say \"\"hi\"\"\"\r\n5,\"\"\r\n");
  }

  @Test
  void nullsCompareAsUnknownAndAreDroppedWhileNanIsAValue() {
    assertThat(columnC("v != 0.5")).containsExactly("3", "4", "2"); // c=5 has v null
    assertThat(columnC("v == nan")).containsExactly("2");
    assertThat(columnC("v == 0")).containsExactly("3"); // -0.0 equals 0
    assertThat(columnC("v > 1e19")).containsExactly("4", "2"); // NaN sorts above every number
  }

  @Test
  void conditionsJoinedByAndOnDatesStringsAndLists() {
    assertThat(columnC("d >= '2024-01-02'")).containsExactly("3", "5", "2"); // c=4 has d null
    assertThat(columnC("c in (1, 5) and s == ''")).containsExactly("5");
    assertThat(columnC("s < 'b' AND p != 2")).containsExactly("1");
    assertThat(columnC("2 <= c < 5")).containsExactly("3", "4", "2");
    assertThat(columnC("'2024-01-01' < d <= '2024-01-05' and c > 2")).containsExactly("3", "5");
  }

  private List<String> columnC(String where) {
    KtkRun run = ktk("read", "--store", url, "--dataset", "events", "--columns", "c", "--where", where);
    assertThat(run.exitCode()).as(where + ": " + run).isZero();
    List<String> lines = new ArrayList<>(Arrays.asList(run.out().split("\r\n")));
    assertThat(lines.remove(0)).isEqualTo("c");
    return lines;
  }

  @Test
  void badConditionsFailBeforeAnyFileIsReadWithMessagesNamingTheColumn() throws IOException {
    for (DataFile file : files) {
      corrupt(file);
    }

    assertError(ktk("read", "--store", url, "--dataset", "events", "--where", "x == 1"),
        "condition `x == 1` is on column 'x', which the dataset does not have (columns: p, c, s, v, d)");
    assertError(ktk("read", "--store", url, "--dataset", "events", "--where", "c == 'one'"),
        "compares column 'c' of type int64 with 'one', which does not fit; use a whole number");
    assertError(ktk("read", "--store", url, "--dataset", "events", "--where", "d > 2024"),
        "compares column 'd' of type date32[day] with 2024");
    assertError(ktk("read", "--store", url, "--dataset", "events", "--where", "s != null"),
        "compares column 's' of type string with NULL, which is unknown and never true");
    assertError(ktk("read", "--store", url, "--dataset", "events", "--where", "c = 1"),
        "unknown operator '=' at position 3; use '==' for equality");
    assertError(ktk("read", "--store", url, "--dataset", "events", "--where", "c == 1 or c == 2"),
        "expected 'and' or the end at position 8, found 'or' ('or' is not supported: conditions are joined by 'and')");
    assertError(ktk("read", "--store", url, "--dataset", "events", "--columns", "c,nope"),
        "Cannot read column 'nope' of dataset 'events': it has no such column");
  }

  private static void assertError(KtkRun run, String message) {
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Ktk.ERROR);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains(message).doesNotContain("\tat ");
  }

  @Test
  void readsTheSameRowsFromS3() throws IOException {
    String s3Url = S3.url("read-test");
    try (ObjectStore s3 = ObjectStores.open(s3Url, S3.options())) {
      createEvents(s3);
    }
    List<String> args = new ArrayList<>(List.of("read", "--store", s3Url, "--dataset", "events", "--where", "p == 2"));
    S3.options().forEach((key, value) -> args.addAll(List.of("--store-option", key + "=" + value)));

    KtkRun run = ktk(args.toArray(String[]::new));

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).isEqualTo(
        "p,c,d,s,v\r\n"
            + "2,3,2024-01-03,\"x,y\",-0.0\r\n"
            + "2,4,,\"say \"\"hi\"\"\",1e+20\r\n"
            + "2,5,2024-01-05,\"\",\r\n");
  }
}
