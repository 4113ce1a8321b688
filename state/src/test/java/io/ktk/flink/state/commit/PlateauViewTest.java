package io.ktk.flink.state.commit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.dataset.NoSuchDatasetException;
import io.ktk.flink.state.dataset.Partition;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.metadata.DatasetMetadata;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.metadata.PartitionLabel;
import io.ktk.flink.state.parquet.ParquetRowsWriter;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectInfo;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.testing.PyChecks;
import io.ktk.flink.state.testing.Python;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The published plateau view, adoption of plateau datasets, garbage collection and snapshots. */
class PlateauViewTest {
  private static final Field DAY = field("day", new ArrowType.Date(DateUnit.DAY));
  private static final Field C = field("c", new ArrowType.Int(64, true));
  private static final Field V = field("v", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
  private static final Field S = field("s", ArrowType.Utf8.INSTANCE);
  private static final Schema SCHEMA = new Schema(List.of(V, DAY, S, C));
  private static final Schema PHYSICAL = new Schema(List.of(V, S, C));

  @TempDir Path dir;
  ObjectStore store;

  @BeforeEach
  void openStore() {
    store = new LocalObjectStore(dir);
  }

  private static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.nullable(type), null);
  }

  /** Writes a real data file of rows (v, s, c) for partition {@code day}; returns it with its c values. */
  private DataFile writeFile(String uuid, LocalDate day, long... cs) throws IOException {
    PartitionLabel label = PartitionLabel.of(List.of(DAY), List.of(day), PartitionLabel.newFileId());
    String key = uuid + "/table/" + label + ".parquet";
    try (ParquetRowsWriter writer = ParquetRowsWriter.create(store, key, PHYSICAL, Map.of(), ParquetWriteOptions.defaults())) {
      for (long c : cs) {
        writer.write(Arrays.asList(c * 0.5, c % 2 == 0 ? "even" : null, c));
      }
    }
    return new DataFile(label.toString(), cs.length, store.head(key).orElseThrow().size(), PHYSICAL);
  }

  private static Map<String, Map<IndexValue, List<String>>> indexOf(DataFile file, long... cs) {
    Map<IndexValue, List<String>> values = new HashMap<>();
    for (long c : cs) {
      values.put(IndexValue.of(c), List.of(file.label()));
    }
    return Map.of("c", values);
  }

  private CommitResult commitFile(CommitLog log, LocalDate day, long... cs) throws IOException {
    DataFile file = writeFile(log.uuid(), day, cs);
    return log.commit(DatasetChange.append(List.of("day"), SCHEMA, List.of(file)).withIndex(List.of("c"), indexOf(file, cs)));
  }

  @Test
  void publishedViewReadsInPyarrowLikePlateauWouldAndMatchesTheLog() throws IOException {
    CommitLog log = CommitLog.open(store, "events", CommitLogOptions.DEFAULTS);
    commitFile(log, LocalDate.of(2024, 1, 1), 1, 2, 3);
    commitFile(log, LocalDate.of(2024, 1, 2), 3, 4);
    commitFile(log, LocalDate.of(2024, 1, 1), 5);
    assertThat(new PlateauPublisher().publish(log)).isEqualTo(2);

    PyChecks checks = PyChecks.run("""
        import json, os, sys, urllib.parse
        import pyarrow as pa, pyarrow.parquet as pq
        root, uuid = sys.argv[1], sys.argv[2]
        meta = json.load(open(os.path.join(root, uuid + ".by-dataset-metadata.json")))
        check("metadata", lambda: (meta["dataset_metadata_version"] == 4 and meta["dataset_uuid"] == uuid
            and meta["partition_keys"] == ["day"] and len(meta["partitions"]) == 3
            and meta["metadata"]["ktk_flink_log_version"] == 2, meta))
        schema = pq.read_schema(os.path.join(root, uuid, "table", "_common_metadata"))
        expected = pa.schema([("day", pa.date32()), ("c", pa.int64()), ("s", pa.string()), ("v", pa.float64())])
        check("common_metadata", lambda: (schema.remove_metadata().equals(expected), str(schema)))
        # Read every partition as plateau does: the data file, plus the partition column from the label.
        rows, labels_by_c = [], {}
        for label, part in meta["partitions"].items():
            table = pq.read_table(os.path.join(root, part["files"]["table"]))
            day = urllib.parse.unquote(label.split("/")[0].split("=")[1])
            for c, s, v in zip(table.column("c").to_pylist(), table.column("s").to_pylist(), table.column("v").to_pylist()):
                rows.append((day, c, s, v))
                labels_by_c.setdefault(c, set()).add(label)
        check("rows", lambda: (sorted(rows) == sorted([
            ("2024-01-01", 1, None, 0.5), ("2024-01-01", 2, "even", 1.0), ("2024-01-01", 3, None, 1.5),
            ("2024-01-02", 3, None, 1.5), ("2024-01-02", 4, "even", 2.0), ("2024-01-01", 5, None, 2.5)]), rows))
        index = pq.read_table(os.path.join(root, meta["indices"]["c"])).to_pylist()
        found = {r["c"]: set(r["partition"]) for r in index}
        check("index", lambda: (found == labels_by_c, (found, labels_by_c)))
        """, dir.toString(), "events");
    for (String check : List.of("metadata", "common_metadata", "rows", "index")) {
      checks.assertOk(check);
    }
  }

  @Test
  void viewConvergesWhenAPublisherOfAnOlderVersionWritesLast() throws IOException {
    CommitLog first = CommitLog.open(store, "events", CommitLogOptions.DEFAULTS);
    commitFile(first, LocalDate.of(2024, 1, 1), 1);
    CommitLog second = CommitLog.open(store, "events", CommitLogOptions.DEFAULTS);
    commitFile(second, LocalDate.of(2024, 1, 2), 2);
    assertThat(new PlateauPublisher().publish(second)).isEqualTo(1);

    // `first` still holds version 0; it publishes that, then finds version 1 and publishes it.
    assertThat(first.state().version()).isZero();
    assertThat(new PlateauPublisher().publish(first)).isEqualTo(1);

    DatasetMetadata view = DatasetMetadata.load(store, "events").orElseThrow();
    assertThat(view.metadata().get(PlateauPublisher.LOG_VERSION_KEY).asLong()).isEqualTo(1);
    assertThat(view.fileKeys().keySet()).isEqualTo(first.state().files().keySet()).hasSize(2);
  }

  @Test
  void aDatasetWrittenByPlateauIsAdoptedAsVersionZeroAndExtended() throws IOException {
    // Written the way plateau writes a dataset: data files without the partition column, the
    // zero-row _common_metadata, a secondary index file, and the metadata JSON.
    Python.run("""
        import json, os, sys
        import pyarrow as pa, pyarrow.parquet as pq
        root, uuid = sys.argv[1], sys.argv[2]
        full = pa.schema([("p", pa.int64()), ("c", pa.int64()), ("x", pa.large_string())])
        labels = {}
        for p, hexid, cs in [(1, "a" * 32, [10, 11]), (2, "b" * 32, [11])]:
            label = f"p={p}/{hexid}"
            path = os.path.join(root, uuid, "table", label + ".parquet")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            pq.write_table(pa.table({"c": pa.array(cs, pa.int64()), "x": pa.array(["v"] * len(cs), pa.large_string())}), path)
            labels[label] = cs
        pq.write_metadata(full, os.path.join(root, uuid, "table", "_common_metadata"))
        index_key = f"{uuid}/indices/c/2024-01-01T00%3A00%3A00.by-dataset-index.parquet"
        os.makedirs(os.path.dirname(os.path.join(root, index_key)), exist_ok=True)
        pq.write_table(pa.table({"c": pa.array([10, 11], pa.int64()),
            "partition": pa.array([["p=1/" + "a" * 32], ["p=1/" + "a" * 32, "p=2/" + "b" * 32]], pa.list_(pa.string()))}),
            os.path.join(root, index_key))
        meta = {"dataset_metadata_version": 4, "dataset_uuid": uuid,
                "partitions": {l: {"files": {"table": f"{uuid}/table/{l}.parquet"}} for l in labels},
                "partition_keys": ["p"], "indices": {"c": index_key}, "metadata": {"creation_time": "2024-01-01T00:00:00"}}
        json.dump(meta, open(os.path.join(root, uuid + ".by-dataset-metadata.json"), "w"))
        """, dir.toString(), "legacy");

    DatasetSnapshot readOnly = DatasetSnapshot.latest(store, "legacy");
    assertThat(readOnly.fileCount()).isEqualTo(2);
    assertThat(store.head(DatasetKeys.logEntryKey("legacy", 0))).as("reading adopts nothing").isEmpty();

    CommitLog log = CommitLog.open(store, "legacy", CommitLogOptions.DEFAULTS);
    assertThat(log.state().version()).isZero();
    assertThat(log.state().files()).containsOnlyKeys("p=1/" + "a".repeat(32), "p=2/" + "b".repeat(32));
    assertThat(log.state().index("c").get(IndexValue.of(11L)))
        .containsExactly("p=1/" + "a".repeat(32), "p=2/" + "b".repeat(32));
    assertThat(log.state().metadata().get("creation_time").asText()).isEqualTo("2024-01-01T00:00:00");

    Schema physical = new Schema(List.of(field("c", new ArrowType.Int(64, true)), field("x", ArrowType.Utf8.INSTANCE)));
    Schema logical = new Schema(List.of(field("p", new ArrowType.Int(32, true)), physical.getFields().get(0),
        physical.getFields().get(1)));
    DataFile added = new DataFile("p=3/" + "c".repeat(32), 1, 100, physical);
    log.commit(DatasetChange.append(List.of("p"), logical, List.of(added))
        .withIndex(List.of(), Map.of("c", Map.of(IndexValue.of(12L), List.of(added.label())))));
    new PlateauPublisher().publish(log);

    DatasetMetadata view = DatasetMetadata.load(store, "legacy").orElseThrow();
    assertThat(view.fileKeys()).hasSize(3);
    DatasetSnapshot snapshot = DatasetSnapshot.latest(store, "legacy");
    assertThat(snapshot.version()).isEqualTo(1);
    assertThat(snapshot.partitions()).extracting(Partition::values)
        .containsExactly(List.of(1L), List.of(2L), List.of(3L));
    assertThat(snapshot.partitions().get(0).rows()).as("adopted files have unknown row counts").isEqualTo(-1);
    assertThat(snapshot.index("c"))
        .containsOnlyKeys(IndexValue.of(10L), IndexValue.of(11L), IndexValue.of(12L));
  }

  @Test
  void garbageCollectionDeletesOnlyUnreferencedFilesOlderThanTheSafetyAge() throws IOException {
    CommitLog log = CommitLog.open(store, "events", CommitLogOptions.DEFAULTS);
    PlateauPublisher publisher = new PlateauPublisher();
    LocalDate day = LocalDate.of(2024, 1, 1);
    DataFile replaced = writeFile("events", day, 1);
    log.commit(DatasetChange.append(List.of("day"), SCHEMA, List.of(replaced))
        .withIndex(List.of("c"), indexOf(replaced, 1)));
    publisher.publish(log);
    DataFile kept = writeFile("events", LocalDate.of(2024, 1, 2), 2);
    log.commit(DatasetChange.append(List.of("day"), SCHEMA, List.of(kept)).withIndex(List.of(), indexOf(kept, 2)));
    DataFile replacement = writeFile("events", day, 3);
    log.commit(DatasetChange.replacePartitions(List.of("day"), SCHEMA, List.of(replacement), Set.of("day=2024-01-01"))
        .withIndex(List.of(), indexOf(replacement, 3)));
    publisher.publish(log);
    DataFile orphan = writeFile("events", day, 4); // written by a writer that never committed

    List<String> before = keys("events/");
    GarbageCollector.Result young = GarbageCollector.collect(store, "events", Duration.ofDays(1), Instant.now(), false);
    assertThat(young.deleted()).isEmpty();
    assertThat(young.tooYoung()).isEqualTo(2); // the orphan, the first index file
    assertThat(keys("events/")).isEqualTo(before);

    // The replaced file is part of versions 0 and 1, which are retained: only the orphan and the
    // superseded index file go.
    Instant twoDaysLater = Instant.now().plus(Duration.ofDays(2));
    GarbageCollector.Result dry = GarbageCollector.collect(store, "events", Duration.ofDays(1), twoDaysLater, true);
    assertThat(keys("events/")).isEqualTo(before);
    GarbageCollector.Result old = GarbageCollector.collect(store, "events", Duration.ofDays(1), twoDaysLater, false);
    assertThat(old.deleted()).isEqualTo(dry.deleted()).hasSize(2).contains(orphan.key("events"));
    assertThat(old.deleted()).noneMatch(key -> key.contains(kept.label()) || key.contains(replacement.label())
        || key.contains(replaced.label()));

    // Once versions 0 and 1 expire, the replaced file is garbage too.
    LogExpiry.expire(log, Duration.ofDays(1), 1, twoDaysLater, false);
    GarbageCollector.Result expired = GarbageCollector.collect(store, "events", Duration.ofDays(1), twoDaysLater,
        false);
    assertThat(expired.deleted()).containsExactly(replaced.key("events"));

    DatasetSnapshot snapshot = DatasetSnapshot.latest(store, "events");
    for (DataFile file : snapshot.partitions().stream().flatMap(p -> p.files().stream()).toList()) {
      assertThat(store.head(file.key("events"))).as(file.label()).isPresent();
    }
    DatasetMetadata view = DatasetMetadata.load(store, "events").orElseThrow();
    assertThat(store.head(view.externalIndexKeys().get("c"))).isPresent();
    assertThatThrownBy(() -> GarbageCollector.collect(store, "nothing", Duration.ofDays(1), twoDaysLater, false))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("'nothing'");
    assertThatThrownBy(() -> GarbageCollector.collect(store, "events", Duration.ofMinutes(5), twoDaysLater, false))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("safety age of PT5M: it is below the floor of PT1H");
  }

  @Test
  void snapshotsOfOlderVersionsAndMissingDatasetsAndVersions() throws IOException {
    CommitLog log = CommitLog.open(store, "events", CommitLogOptions.DEFAULTS);
    commitFile(log, LocalDate.of(2024, 1, 1), 1, 2);
    commitFile(log, LocalDate.of(2024, 1, 2), 3);

    DatasetSnapshot first = DatasetSnapshot.at(store, "events", 0);
    DatasetSnapshot latest = DatasetSnapshot.latest(store, "events");
    assertThat(first.partitions()).extracting(Partition::values).containsExactly(List.of(LocalDate.of(2024, 1, 1)));
    assertThat(first.rows()).isEqualTo(2);
    assertThat(latest.rows()).isEqualTo(3);
    assertThat(latest.partitionKeys()).containsExactly(DAY);
    assertThat(latest.bytes()).isEqualTo(sizes("events/table/"));

    assertThatThrownBy(() -> DatasetSnapshot.at(store, "events", 7))
        .isInstanceOf(NoSuchDatasetException.class)
        .hasMessageContaining("version 7")
        .hasMessageContaining("latest version is 1");
    assertThatThrownBy(() -> DatasetSnapshot.latest(store, "missing"))
        .isInstanceOf(NoSuchDatasetException.class)
        .hasMessageContaining("'missing'");
  }

  @Test
  void brokenPlateauDatasetsFailWithTypedErrorsAndAreNotAdopted() throws IOException {
    CommitLog log = CommitLog.open(store, "events", CommitLogOptions.DEFAULTS);
    commitFile(log, LocalDate.of(2024, 1, 1), 1);
    new PlateauPublisher().publish(log);
    byte[] json = store.get(DatasetKeys.metadataJsonKey("events"));
    byte[] commonMetadata = store.get(DatasetKeys.commonMetadataKey("events"));

    // The same published view, without a log, as plateau would leave it.
    store.put(DatasetKeys.metadataJsonKey("copy"), new String(json, UTF_8).replace("events", "copy").getBytes(UTF_8));
    assertThatThrownBy(() -> CommitLog.open(store, "copy", CommitLogOptions.DEFAULTS))
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageContaining("copy/table/_common_metadata");

    store.put(DatasetKeys.commonMetadataKey("copy"), Arrays.copyOf(commonMetadata, commonMetadata.length / 2));
    assertThatThrownBy(() -> DatasetSnapshot.latest(store, "copy"))
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageContaining("copy/table/_common_metadata");

    store.put(DatasetKeys.commonMetadataKey("copy"), commonMetadata);
    store.put(DatasetKeys.metadataJsonKey("copy"), Arrays.copyOf(json, json.length - 20));
    assertThatThrownBy(() -> CommitLog.open(store, "copy", CommitLogOptions.DEFAULTS))
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageContaining("copy.by-dataset-metadata.json");

    store.put(DatasetKeys.metadataJsonKey("copy"), new String(json, UTF_8).replace("events", "copy")
        .replace("\"dataset_metadata_version\":4", "\"dataset_metadata_version\":5").getBytes(UTF_8));
    assertThatThrownBy(() -> DatasetSnapshot.latest(store, "copy"))
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageContaining("dataset_metadata_version 5 is not supported");
    assertThat(store.list("copy/_ktk_log/").hasNext()).as("nothing adopted").isFalse();
  }

  private List<String> keys(String prefix) throws IOException {
    List<String> keys = new ArrayList<>();
    store.list(prefix).forEachRemaining(info -> keys.add(info.key()));
    return keys;
  }

  private long sizes(String prefix) throws IOException {
    long total = 0;
    var objects = store.list(prefix);
    while (objects.hasNext()) {
      ObjectInfo info = objects.next();
      if (info.key().endsWith(".parquet")) {
        total += info.size();
      }
    }
    return total;
  }
}
