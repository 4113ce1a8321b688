package io.ktk.flink.cli;

import static io.ktk.flink.cli.KtkRun.ktk;
import static io.ktk.flink.state.testing.TestDataset.field;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.commit.PlateauPublisher;
import io.ktk.flink.state.metadata.CubeMetadataKeys;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.metadata.DatasetMetadata;
import io.ktk.flink.state.metadata.PartitionLabel;
import io.ktk.flink.state.parquet.ParquetRowsWriter;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import io.ktk.flink.state.testing.S3Proxy;
import io.ktk.flink.state.testing.TestDataset;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code ktk gc}, {@code validate}, {@code index}, {@code copy} and {@code delete} on real datasets. */
class MaintenanceCommandsTest {
  @RegisterExtension static final S3Proxy S3 = S3Proxy.inMemory();

  @TempDir Path dir;
  @TempDir Path otherDir;
  LocalObjectStore store;
  String url;
  List<DataFile> files;

  @BeforeEach
  void writeDataset() throws IOException {
    store = new LocalObjectStore(dir);
    url = dir.toUri().toString();
    files = ReadCommandTest.createEvents(store);
  }

  private Path pathOf(String key) {
    return dir.resolve(key);
  }

  private void age(String key, Duration age) throws IOException {
    Files.setLastModifiedTime(pathOf(key), FileTime.from(Instant.now().minus(age)));
  }

  private static String[] withS3(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    S3.options().forEach((key, value) -> all.addAll(List.of("--store-option", key + "=" + value)));
    return all.toArray(String[]::new);
  }

  // --- gc

  @Test
  void gcDeletesOnlyUnreferencedFilesOlderThanTheSafetyAge() throws IOException {
    String old = "events/table/p=2/" + PartitionLabel.newFileId() + ".parquet";
    String young = "events/table/p=2/" + PartitionLabel.newFileId() + ".parquet";
    store.put(old, new byte[1234]);
    store.put(young, new byte[10]);
    age(old, Duration.ofDays(2));
    age(young, Duration.ofHours(1));
    for (DataFile file : files) {
      age(file.key("events"), Duration.ofDays(3)); // old, but referenced
    }

    KtkRun dry = ktk("gc", "--store", url, "--dataset", "events", "--dry-run");
    assertThat(dry.exitCode()).as(dry.toString()).isZero();
    assertThat(dry.out()).contains("would delete " + old, "would delete 1 files, 1,234 bytes");
    assertThat(pathOf(old)).exists();

    KtkRun gc = ktk("gc", "--store", url, "--dataset", "events");
    assertThat(gc.exitCode()).as(gc.toString()).isZero();
    assertThat(gc.out()).contains("deleted " + old, "deleted 1 files, 1,234 bytes", "1 younger than 1d");
    assertThat(pathOf(old)).doesNotExist();
    assertThat(pathOf(young)).exists();
    files.forEach(file -> assertThat(pathOf(file.key("events"))).exists());

    KtkRun refused = ktk("gc", "--store", url, "--dataset", "events", "--older-than", "30m");
    assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(1);
    assertThat(refused.err()).contains("safety age of PT30M: it is below the floor of PT1H", "force");
    assertThat(pathOf(young)).exists();

    KtkRun forced = ktk("gc", "--store", url, "--dataset", "events", "--older-than", "30m", "--force");
    assertThat(forced.exitCode()).as(forced.toString()).isZero();
    assertThat(pathOf(young)).doesNotExist();
    assertThat(ktk("read", "--store", url, "--dataset", "events").out().lines()).hasSize(6);
  }

  // --- expire

  @Test
  void expireKeepsTheLastVersionsAndRefusesOlderOnes() throws IOException {
    TestDataset events = TestDataset.create(store, "more", ReadCommandTest.SCHEMA, List.of("p"), List.of("c"));
    for (int i = 0; i < 4; i++) {
      events.append(ReadCommandTest.ROWS);
    }
    events.publish();
    String moreUrl = url;

    KtkRun dry = ktk("expire", "--store", moreUrl, "--dataset", "more", "--older-than", "0s", "--retain-last", "2",
        "--dry-run");
    assertThat(dry.exitCode()).as(dry.toString()).isZero();
    assertThat(dry.out()).contains("would delete more/_ktk_log/00000000000000000000.json",
        "would retain versions 2 to 3");
    assertThat(pathOf("more/_ktk_log/00000000000000000000.json")).exists();

    KtkRun expire = ktk("expire", "--store", moreUrl, "--dataset", "more", "--older-than", "0s", "--retain-last", "2");
    assertThat(expire.exitCode()).as(expire.toString()).isZero();
    assertThat(expire.out()).contains("deleted more/_ktk_log/00000000000000000001.json", "retains versions 2 to 4");
    assertThat(pathOf("more/_ktk_log/00000000000000000001.json")).doesNotExist();
    assertThat(ktk("read", "--store", moreUrl, "--dataset", "more").out().lines()).hasSize(1 + 4 * 5);

    KtkRun usage = ktk("expire", "--store", moreUrl, "--dataset", "more", "--retain-last", "0");
    assertThat(usage.exitCode()).isEqualTo(2);
    assertThat(usage.err()).contains("--retain-last");
  }

  // --- validate

  @Test
  void validateFindsNothingWrongInAHealthyDataset() {
    KtkRun run = ktk("validate", "--store", url, "--dataset", "events");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).isEqualTo("dataset events at version 0 (2 files):\n  ok\n");
  }

  @Test
  void validateFindsADataFileWithAnotherType() throws IOException {
    DataFile file = files.get(0);
    long loggedSize = Files.size(pathOf(file.key("events")));
    Schema planted = new Schema(List.of(field("c", new ArrowType.Int(64, true)), field("d", new ArrowType.Utf8()),
        field("s", new ArrowType.Utf8()), field("v", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))));
    store.delete(file.key("events"));
    try (ParquetRowsWriter writer = ParquetRowsWriter.create(store, file.key("events"), planted, Map.of(),
        ParquetWriteOptions.defaults())) {
      writer.write(List.of(1L, "2024-01-01", "a", 0.5));
      writer.write(List.of(2L, "2024-01-02", "b", 1.0));
    }
    long plantedSize = Files.size(pathOf(file.key("events")));

    KtkRun run = ktk("validate", "--store", url, "--dataset", "events");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Ktk.ERROR);
    assertThat(run.out()).contains("PROBLEM: data file " + file.key("events") + ":",
        "column 'd' has type date32[day] in the committed schema but the batch offers string",
        "PROBLEM: data file " + file.key("events") + " has " + plantedSize + " bytes, the log recorded " + loggedSize);
    assertThat(run.err()).contains("Found ").contains("problem(s) in dataset 'events'");
  }

  @Test
  void validateFindsAnIndexThatMissesAValueOfAFile() throws IOException {
    // A writer that forgot the index delta of its file: value 7 of column c is in no index entry.
    CommitLog log = CommitLog.open(store, "events", CommitLogOptions.DEFAULTS);
    TestDataset events = TestDataset.create(store, "events", ReadCommandTest.SCHEMA, List.of("p"), List.of("c"));
    PartitionLabel label = PartitionLabel.of(List.of(ReadCommandTest.SCHEMA.findField("p")), List.of(2L),
        PartitionLabel.newFileId());
    String key = "events/table/" + label + ".parquet";
    try (ParquetRowsWriter writer = ParquetRowsWriter.create(store, key, events.dataSchema(), Map.of(),
        ParquetWriteOptions.defaults())) {
      writer.write(java.util.Arrays.asList(7L, "seven", 7.0, null)); // c, s, v, d
    }
    DataFile file = new DataFile(label.toString(), 1, store.head(key).orElseThrow().size(), events.dataSchema());
    log.commit(DatasetChange.append(List.of("p"), ReadCommandTest.SCHEMA, List.of(file)));
    new PlateauPublisher().publish(log);

    KtkRun run = ktk("validate", "--store", url, "--dataset", "events");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Ktk.ERROR);
    assertThat(run.out()).contains("PROBLEM: the index of column c lacks values the files hold: 7 in " + label);
  }

  @Test
  void validateOfACubeFindsADuplicateCell() throws IOException {
    CubeSpec spec = CubeSpec.of("sales", List.of("x"), List.of("p"));
    Schema schema = new Schema(List.of(field("p", new ArrowType.Int(64, true)), field("x", new ArrowType.Int(64, true)),
        field("a", ArrowType.Utf8.INSTANCE)));
    TestDataset seed = TestDataset.create(store, "sales++seed", schema, List.of("p"), List.of("x"))
        .withMetadata(CubeMetadataKeys.datasetMetadata(spec, "seed"));
    seed.append(List.of(List.of(1L, 1L, "one"), List.of(2L, 1L, "other partition, same x")));
    seed.append(List.of(List.of(1L, 1L, "one again")));
    seed.publish();

    KtkRun run = ktk("validate", "--store", url, "--cube", "sales");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Ktk.ERROR);
    assertThat(run.out()).contains("PROBLEM: Cannot accept dataset seed of cube sales: duplicate cell (p=1, x=1)");
  }

  // --- index

  @Test
  void indexBuildsACommittedAndPublishedIndexThatInfoShowsAndReadUses() throws IOException {
    TestDataset plain = TestDataset.create(store, "plain", ReadCommandTest.SCHEMA, List.of("p"), List.of());
    List<DataFile> plainFiles = plain.append(ReadCommandTest.ROWS);
    plain.publish();

    KtkRun run = ktk("index", "--store", url, "--dataset", "plain", "--on", "c");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).contains("indexed column c (5 distinct values in 2 files) at version 1; published version 1");
    KtkRun info = ktk("info", "--store", url, "--dataset", "plain", "--json");
    assertThat(new ObjectMapper().readTree(info.out()).get("indices").toString())
        .isEqualTo("[{\"column\":\"c\",\"values\":5}]");
    assertThat(DatasetMetadata.load(store, "plain").orElseThrow().externalIndexKeys()).containsKey("c");
    assertThat(ktk("validate", "--store", url, "--dataset", "plain").exitCode()).isZero();

    // The index now lets read skip the file of p=10 for c == 4.
    DataFile p10 = plainFiles.stream().filter(f -> f.label().startsWith("p=10/")).findFirst().orElseThrow();
    store.put(p10.key("plain"), new byte[] {1, 2, 3});
    KtkRun read = ktk("read", "--store", url, "--dataset", "plain", "--columns", "c", "--where", "c == 4");
    assertThat(read.out()).as(read.toString()).isEqualTo("c\r\n4\r\n");
  }

  @Test
  void indexRefusesColumnsThatCannotBeIndexed() {
    assertThat(ktk("index", "--store", url, "--dataset", "events", "--on", "c").err())
        .contains("Cannot index column 'c' of dataset 'events': it has an index already");
    assertThat(ktk("index", "--store", url, "--dataset", "events", "--on", "p").err())
        .contains("Cannot index column 'p' of dataset 'events': it is a partition column");
    assertThat(ktk("index", "--store", url, "--dataset", "events", "--on", "zz").err())
        .contains("Cannot index column 'zz' of dataset 'events': it has no such column");
    KtkRun nulls = ktk("index", "--store", url, "--dataset", "events", "--on", "s");
    assertThat(nulls.exitCode()).isEqualTo(Ktk.ERROR);
    assertThat(nulls.err()).contains("holds nulls in it, and an index column may not hold nulls");
  }

  // --- copy

  @Test
  void copyToS3GivesADatasetThatReadsAndValidatesTheSame() throws IOException {
    String target = S3.url("copy-test");
    ObjectStore s3 = ObjectStores.open(target, S3.options());

    KtkRun copy = ktk("copy", "--store", url, "--dataset", "events", "--to", target, "--to-option",
        "endpoint=" + S3.endpoint(), "--to-option", "region=us-east-1", "--to-option", "path-style=true",
        "--to-option", "access-key-id=" + S3Proxy.ACCESS_KEY, "--to-option", "secret-access-key=" + S3Proxy.SECRET_KEY);

    assertThat(copy.exitCode()).as(copy.toString()).isZero();
    assertThat(copy.out()).contains("copied dataset events at version 0 to " + target);
    KtkRun source = ktk("read", "--store", url, "--dataset", "events", "--format", "jsonl");
    KtkRun copied = ktk(withS3("read", "--store", target, "--dataset", "events", "--format", "jsonl"));
    assertThat(copied.exitCode()).as(copied.toString()).isZero();
    assertThat(copied.out()).isEqualTo(source.out()).hasLineCount(5);
    KtkRun validate = ktk(withS3("validate", "--store", target, "--dataset", "events"));
    assertThat(validate.exitCode()).as(validate.toString()).isZero();
    for (DataFile file : files) {
      assertThat(s3.get(file.key("events"))).isEqualTo(store.get(file.key("events")));
    }

    KtkRun again = ktk("copy", "--store", url, "--dataset", "events", "--to", target, "--to-option",
        "endpoint=" + S3.endpoint(), "--to-option", "region=us-east-1", "--to-option", "path-style=true",
        "--to-option", "access-key-id=" + S3Proxy.ACCESS_KEY, "--to-option", "secret-access-key=" + S3Proxy.SECRET_KEY);
    assertThat(again.exitCode()).isEqualTo(Ktk.ERROR);
    assertThat(again.err()).contains("Cannot copy dataset 'events' to " + target + ": it exists there");
    s3.close();
  }

  @Test
  void copyOfACubeCopiesEveryDatasetAndTheCubeStaysValid() throws IOException {
    CubeSpec spec = CubeSpec.of("sales", List.of("x"), List.of("p"));
    Schema seedSchema = new Schema(List.of(field("p", new ArrowType.Int(64, true)),
        field("x", new ArrowType.Int(64, true)), field("a", ArrowType.Utf8.INSTANCE)));
    TestDataset seed = TestDataset.create(store, "sales++seed", seedSchema, List.of("p"), List.of("x"))
        .withMetadata(CubeMetadataKeys.datasetMetadata(spec, "seed"));
    seed.append(List.of(List.of(1L, 1L, "one"), List.of(2L, 2L, "two")));
    seed.publish();
    Schema enrichSchema = new Schema(List.of(field("p", new ArrowType.Int(64, true)),
        field("x", new ArrowType.Int(64, true)), field("b", ArrowType.Utf8.INSTANCE)));
    TestDataset enrich = TestDataset.create(store, "sales++enrich", enrichSchema, List.of("p"), List.of())
        .withMetadata(CubeMetadataKeys.datasetMetadata(spec, "enrich"));
    enrich.append(List.of(List.of(1L, 1L, "b1")));
    enrich.publish();
    String target = otherDir.toUri().toString();

    KtkRun copy = ktk("copy", "--store", url, "--cube", "sales", "--to", target);

    assertThat(copy.exitCode()).as(copy.toString()).isZero();
    assertThat(copy.out().lines().toList()).hasSize(2).last().asString().startsWith("copied dataset sales++seed");
    assertThat(ktk("validate", "--store", target, "--cube", "sales").exitCode()).isZero();
    for (String uuid : List.of("sales++seed", "sales++enrich")) {
      assertThat(ktk("read", "--store", target, "--dataset", uuid).out())
          .isEqualTo(ktk("read", "--store", url, "--dataset", uuid).out());
    }
    assertThat(ktk("info", "--store", target, "--dataset", "events").exitCode()).isEqualTo(Ktk.ERROR);
  }

  // --- datasets plateau wrote (no log)

  @Test
  void aDatasetWithoutLogIsReadFromItsPublishedViewAndCopiedAsIs() throws IOException {
    // What plateau leaves: the same objects without this project's log.
    try (Stream<Path> log = Files.walk(dir.resolve("events/_ktk_log"))) {
      for (Path path : log.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
    String before = ktk("read", "--store", url, "--dataset", "events").out();
    assertThat(before.lines()).hasSize(6);

    KtkRun info = ktk("info", "--store", url, "--dataset", "events", "--json");
    assertThat(info.exitCode()).as(info.toString()).isZero();
    assertThat(new ObjectMapper().readTree(info.out()).get("rows").isNull()).isTrue();
    assertThat(ktk("validate", "--store", url, "--dataset", "events").exitCode()).isZero();

    String target = otherDir.toUri().toString();
    KtkRun copy = ktk("copy", "--store", url, "--dataset", "events", "--to", target);
    assertThat(copy.exitCode()).as(copy.toString()).isZero();
    assertThat(otherDir.resolve("events/_ktk_log")).doesNotExist();
    assertThat(Files.readAllBytes(otherDir.resolve("events.by-dataset-metadata.json")))
        .isEqualTo(Files.readAllBytes(dir.resolve("events.by-dataset-metadata.json")));
    assertThat(ktk("read", "--store", target, "--dataset", "events").out()).isEqualTo(before);
  }

  // --- delete

  @Test
  void deleteWithoutConfirmationInAScriptIsRefusedAndDeletesNothing() throws IOException {
    long before = countFiles(dir);

    KtkRun run = ktk("delete", "--store", url, "--dataset", "events");

    assertThat(run.exitCode()).isEqualTo(Ktk.USAGE);
    assertThat(run.err()).contains("Refusing to delete dataset 'events' without confirmation", "add --yes");
    assertThat(countFiles(dir)).isEqualTo(before);
  }

  @Test
  void deleteRemovesEveryObjectOfTheDatasetAndOnlyThose() throws IOException {
    TestDataset other = TestDataset.create(store, "events2", ReadCommandTest.SCHEMA, List.of("p"), List.of());
    other.append(ReadCommandTest.ROWS);
    other.publish();

    KtkRun run = ktk("delete", "--store", url, "--dataset", "events", "--yes");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(countFiles(dir.resolve("events"))).isZero();
    assertThat(dir.resolve("events.by-dataset-metadata.json")).doesNotExist();
    assertThat(ktk("info", "--store", url, "--dataset", "events").exitCode()).isEqualTo(Ktk.ERROR);
    assertThat(ktk("read", "--store", url, "--dataset", "events2").out().lines()).hasSize(6);
    assertThat(ktk("delete", "--store", url, "--dataset", "events", "--yes").err())
        .contains("Cannot delete dataset 'events' in " + url + ": it has no objects there");
  }

  private static long countFiles(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      return paths.filter(Files::isRegularFile).count();
    }
  }
}
