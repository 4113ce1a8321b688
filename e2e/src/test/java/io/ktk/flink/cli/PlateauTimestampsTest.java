package io.ktk.flink.cli;

import static io.ktk.flink.cli.KtkRun.ktk;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.commit.PlateauPublisher;
import io.ktk.flink.state.metadata.ArrowSchemaMetadata;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.metadata.PandasMetadata;
import io.ktk.flink.state.metadata.PartitionLabel;
import io.ktk.flink.state.parquet.ParquetRowsWriter;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.PyChecks;
import io.ktk.flink.state.types.FlinkArrowTypes;
import io.ktk.flink.state.types.TimestampCoercion;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.TimestampData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Datasets plateau wrote with timestamps of pandas' {@code datetime64[us]} and {@code
 * datetime64[ns]} (both stored in microseconds, named {@code timestamp[ns]} in {@code
 * _common_metadata}) and with zones: {@code ktk validate} finds them sound, ktk adopts them with
 * naive timestamps as {@code timestamp[us]}, appends {@code TIMESTAMP(6)} and {@code TIMESTAMP(9)}
 * rows (refusing a value finer than a microsecond), and pandas reads the result as plateau reads
 * its own files. Appending partitions whose columns are all null keeps their types for pandas.
 */
class PlateauTimestampsTest {
  private static final ArrowType NAIVE_US = new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);

  @TempDir Path dir;

  private String url() {
    return dir.toUri().toString();
  }

  @Test
  void validateFindsNoProblemInPlateauDatasetsWithMicroAndNanosecondTimestamps() {
    PlateauFixtures.copy("types", dir);
    PlateauFixtures.copy("all_null_partition", dir);

    for (String uuid : List.of("types", "all_null_partition")) {
      KtkRun validate = ktk("validate", "--store", url(), "--dataset", uuid);
      assertThat(validate.exitCode()).as(validate.toString()).isZero();
      assertThat(validate.out()).as(uuid).endsWith("files):\n  ok\n");
    }
  }

  @Test
  void ingestAppendsTimestamp6And9RowsAndAllNullPartitionsToAPlateauDataset() throws Exception {
    PlateauFixtures.copy("all_null_partition", dir);
    String columns = "grp STRING, id BIGINT, f DOUBLE, s STRING, n BIGINT, ts ";

    KtkRun micros = ingest(columns + "TIMESTAMP(6)",
        "{\"grp\": \"ktk6\", \"id\": 9, \"f\": 0.5, \"s\": \"x\", \"n\": 90, \"ts\": \"2024-05-06T07:08:09.123456\"}",
        "{\"grp\": \"ktk6\", \"id\": 10, \"n\": 100, \"ts\": \"1969-12-31T23:59:59.999999\"}",
        "{\"grp\": \"ktk-nulls\", \"id\": 11, \"n\": 110}");
    assertThat(micros.exitCode()).as(micros.toString()).isZero();
    KtkRun nanos = ingest(columns + "TIMESTAMP(9)",
        "{\"grp\": \"ktk9\", \"id\": 12, \"f\": 2.5, \"s\": \"y\", \"n\": 120, \"ts\": \"2024-05-06T07:08:09.123457000\"}");
    assertThat(nanos.exitCode()).as(nanos.toString()).isZero();
    KtkRun finer = ingest(columns + "TIMESTAMP(9)",
        "{\"grp\": \"ktk9\", \"id\": 13, \"n\": 130, \"ts\": \"2024-05-06T07:08:09.123456789\"}");
    assertThat(finer.exitCode()).as(finer.toString()).isEqualTo(Ktk.ERROR);
    assertThat(finer.err()).contains("column 'ts' holds 2024-05-06T07:08:09.123456789", "would lose precision");

    LocalObjectStore store = new LocalObjectStore(dir);
    assertThat(new LogReader(store, "all_null_partition").latest().schema().findField("ts").getType())
        .isEqualTo(NAIVE_US);
    KtkRun validate = ktk("validate", "--store", url(), "--dataset", "all_null_partition");
    assertThat(validate.exitCode()).as(validate.toString()).isZero();
    assertThat(validate.out()).endsWith("  ok\n");

    PyChecks checks = PyChecks.run(PLATEAU_READ + """
        frames = {p: frame for p, frame in read_as_plateau(sys.argv[1], "all_null_partition").items()}
        ours = pd.concat([frames[p] for p in ["grp=ktk6", "grp=ktk9", "grp=ktk-nulls"]])
        plateaus = pd.concat([frames[p] for p in ["grp=values", "grp=typed"]])
        def dtypes(frame):
            return {c: str(frame[c].dtype) for c in ["f", "s", "ts"]}
        check("our dtypes are plateau's", lambda: (dtypes(ours) == dtypes(plateaus) == {
            "f": "float64", "s": "str", "ts": "datetime64[ns]"}, f"ours {dtypes(ours)}, plateau's {dtypes(plateaus)}"))
        check("all-null partition typed", lambda: (dtypes(frames["grp=ktk-nulls"]) == dtypes(frames["grp=typed"]),
            f"ours {dtypes(frames['grp=ktk-nulls'])}, plateau's {dtypes(frames['grp=typed'])}"))
        by_id = ours.set_index("id")["ts"]
        check("values", lambda: (by_id[9] == pd.Timestamp("2024-05-06 07:08:09.123456")
            and by_id[10] == pd.Timestamp("1969-12-31 23:59:59.999999")
            and by_id[12] == pd.Timestamp("2024-05-06 07:08:09.123457") and pd.isna(by_id[11]), str(by_id)))
        """, dir.toString());
    for (String check : List.of("our dtypes are plateau's", "all-null partition typed", "values")) {
      checks.assertOk(check);
    }
  }

  @Test
  void appendsToNanosecondMicrosecondAndZonedColumnsReadAsPlateausOwn() throws Exception {
    PlateauFixtures.copy("types", dir);
    LocalObjectStore store = new LocalObjectStore(dir);
    CommitLog log = CommitLog.open(store, "types", CommitLogOptions.DEFAULTS);
    Schema committed = log.state().schema();
    assertThat(committed.findField("tns").getType()).as("adopted from _common_metadata's timestamp[ns]")
        .isEqualTo(NAIVE_US);
    assertThat(committed.findField("tus").getType()).isEqualTo(NAIVE_US);
    assertThat(committed.findField("tzb").getType())
        .isEqualTo(new ArrowType.Timestamp(TimeUnit.MICROSECOND, "Europe/Berlin"));

    // The types the sink declares: tns as TIMESTAMP(9), tus as TIMESTAMP(6), tzu as TIMESTAMP_LTZ(6);
    // tzb keeps its zone (no Flink type names one). Other columns as committed, left null.
    Map<String, ArrowType> declared = Map.of(
        "tns", FlinkArrowTypes.toField("tns", DataTypes.TIMESTAMP(9).getLogicalType()).getType(),
        "tus", FlinkArrowTypes.toField("tus", DataTypes.TIMESTAMP(6).getLogicalType()).getType(),
        "tzu", FlinkArrowTypes.toField("tzu", DataTypes.TIMESTAMP_LTZ(6).getLogicalType()).getType());
    List<Field> fields = new ArrayList<>();
    for (Field field : committed.getFields()) {
      ArrowType type = declared.getOrDefault(field.getName(), field.getType());
      fields.add(new Field(field.getName(), new FieldType(true, type, null), field.getChildren()));
    }
    Schema physical = new Schema(fields.stream().filter(f -> !f.getName().equals("part")).toList());
    Map<String, Object> values = Map.of(
        "id", 100L,
        "i16", 7L,
        "tns", LocalDateTime.of(2024, 5, 6, 7, 8, 9, 123_456_000),
        "tus", LocalDateTime.of(2262, 4, 11, 23, 47, 16, 854_775_000),
        "tzb", Instant.parse("2024-10-27T00:30:00Z"),
        "tzu", Instant.parse("2024-07-01T23:59:59.999999Z"));
    // A TIMESTAMP(9) value is refused when finer than a microsecond, whole microseconds pass
    assertThat(TimestampCoercion.toMicros("types", "tns",
        TimestampData.fromLocalDateTime(LocalDateTime.of(2024, 5, 6, 7, 8, 9, 123_456_000))))
        .isEqualTo(1_714_979_289_123_456L);
    PartitionLabel label = PartitionLabel.of(List.of(committed.findField("part")), List.of("ktk"),
        PartitionLabel.newFileId());
    String key = DatasetKeys.dataFileKey("types", label);
    // The footer as the sink writes it: the zone of a timestamp lives in ARROW:schema only
    String pandas = PandasMetadata.of(physical);
    Map<String, String> footer = Map.of(PandasMetadata.KEY, pandas,
        ArrowSchemaMetadata.KEY, ArrowSchemaMetadata.encode(new Schema(physical.getFields(), Map.of("pandas", pandas))));
    try (ParquetRowsWriter writer = ParquetRowsWriter.create(store, key, physical, footer,
        ParquetWriteOptions.defaults())) {
      writer.write(Arrays.asList(physical.getFields().stream().map(f -> values.get(f.getName())).toArray()));
    }
    DataFile file = new DataFile(label.toString(), 1, Files.size(dir.resolve(key)), physical);
    Map<IndexValue, List<String>> indexValues = Map.of(IndexValue.of(7L), List.of(label.toString()));
    log.commit(DatasetChange.append(List.of("part"), new Schema(fields), List.of(file))
        .withIndex(List.of("i16"), Map.of("i16", indexValues)));
    new PlateauPublisher().publish(log);

    KtkRun validate = ktk("validate", "--store", url(), "--dataset", "types");
    assertThat(validate.exitCode()).as(validate.toString()).isZero();
    assertThat(validate.out()).endsWith("  ok\n");
    String expectedDtypes = Files.readString(PlateauFixtures.root().resolve("expected/types.dtypes.json"));
    PyChecks checks = PyChecks.run(PLATEAU_READ + """
        frames = read_as_plateau(sys.argv[1], "types")
        expected = json.loads(sys.argv[2])
        columns = ["tns", "tus", "tzb", "tzu"]
        whole = pd.concat(list(frames.values()))
        check("dtypes", lambda: ({c: str(whole[c].dtype) for c in columns} == {c: expected[c] for c in columns},
            {c: str(whole[c].dtype) for c in columns}))
        row = frames["part=ktk"].iloc[0]
        check("values", lambda: (row["tns"] == pd.Timestamp("2024-05-06 07:08:09.123456")
            and row["tus"] == pd.Timestamp("2262-04-11 23:47:16.854775")
            and row["tzb"] == pd.Timestamp("2024-10-27 02:30:00+02:00") and str(row["tzb"].tz) == "Europe/Berlin"
            and row["tzu"] == pd.Timestamp("2024-07-01 23:59:59.999999+00:00"), str(row[columns].to_dict())))
        check("common metadata", lambda: (str(pq.read_schema(sys.argv[1] + "/types/table/_common_metadata")
            .field("tns").type) in ("timestamp[us]", "timestamp[ns]"), "tns"))
        """, dir.toString(), expectedDtypes);
    for (String check : List.of("dtypes", "values", "common metadata")) {
      checks.assertOk(check);
    }
  }

  /** Reads each file the published metadata lists as plateau does: pyarrow, then pandas with nanoseconds. */
  private static final String PLATEAU_READ =
      """
      import pandas as pd, pyarrow.parquet as pq
      def read_as_plateau(root, uuid):
          meta = json.load(open(f"{root}/{uuid}.by-dataset-metadata.json"))
          frames = {}
          for label, part in meta["partitions"].items():
              frame = pq.read_table(root + "/" + part["files"]["table"]).to_pandas(
                  date_as_object=True, coerce_temporal_nanoseconds=True)
              partition = label.split("/")[0]
              frames[partition] = pd.concat([frames[partition], frame]) if partition in frames else frame
          return frames
      """;

  private KtkRun ingest(String schema, String... lines) throws Exception {
    Path input = Files.writeString(Files.createTempFile(dir, "in", ".jsonl"), String.join("\n", lines) + "\n");
    return ktk("ingest", "--store", url(), "--dataset", "all_null_partition", "--schema", schema, "--partition-on",
        "grp", "--input", input.toString());
  }
}
