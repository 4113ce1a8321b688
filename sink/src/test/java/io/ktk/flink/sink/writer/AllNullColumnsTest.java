package io.ktk.flink.sink.writer;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.KartothekSink;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.dataset.Partition;
import io.ktk.flink.state.metadata.CommonMetadataFile;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.PyChecks;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A partition whose values of some columns are all null keeps the declared types of those
 * columns in its file: pandas reads our file with the dtypes it gives for plateau's own file of the
 * same data ({@code float64}, {@code str}, {@code datetime64}), where the Arrow {@code null} type
 * would give {@code object}; and the log, the file footers and {@code _common_metadata} agree.
 */
class AllNullColumnsTest {
  private static final RowType ROW_TYPE = (RowType) DataTypes.ROW(
      DataTypes.FIELD("grp", DataTypes.STRING()),
      DataTypes.FIELD("id", DataTypes.BIGINT()),
      DataTypes.FIELD("f", DataTypes.DOUBLE()),
      DataTypes.FIELD("s", DataTypes.STRING()),
      DataTypes.FIELD("ts", DataTypes.TIMESTAMP(6)),
      DataTypes.FIELD("n", DataTypes.BIGINT())).getLogicalType();

  @RegisterExtension
  static final MiniClusterExtension FLINK = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberSlotsPerTaskManager(1).build());

  @TempDir static Path dir;

  /** The rows of plateau's dataset: ids 0-2 with values (and some nulls), ids 3-5 with none in f, s, ts. */
  static RowData row(long id) {
    if (id >= 3) {
      GenericRowData row = new GenericRowData(6);
      row.setField(0, StringData.fromString("typed"));
      row.setField(1, id);
      row.setField(5, id * 10);
      return row;
    }
    return GenericRowData.of(StringData.fromString("values"), id,
        id == 1 ? null : 1.5 + id / 4.0,
        id == 1 ? null : StringData.fromString(id == 0 ? "a" : "c"),
        id == 1 ? null : TimestampData.fromLocalDateTime(LocalDateTime.of(2024, 1, 1, 0, 0, 0, 250_000_000)
            .plusDays(181 * id)),
        id * 10);
  }

  @BeforeAll
  static void writeDatasetAndCopyPlateausFile() throws Exception {
    Map<String, String> settings = new HashMap<>(Map.of("execution.runtime-mode", "BATCH", "parallelism.default", "1"));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(settings));
    KartothekSink.forRowData(ROW_TYPE).store(dir.resolve("store").toUri().toString()).dataset("nulls")
        .partitionBy("grp").indexBy("n").build()
        .addTo(env.fromSource(new DataGeneratorSource<>(AllNullColumnsTest::row, 6, InternalTypeInfo.of(ROW_TYPE)),
            WatermarkStrategy.noWatermarks(), "rows"));
    env.execute("all-null columns");
    try (InputStream plateau = AllNullColumnsTest.class.getResourceAsStream("/plateau/all-null-typed.parquet")) {
      Files.copy(plateau, dir.resolve("plateau-typed.parquet"));
    }
  }

  @Test
  void logFilesAndCommonMetadataKeepTheDeclaredTypes() throws Exception {
    List<Field> declared = List.of(
        Field.nullable("id", new ArrowType.Int(64, true)),
        Field.nullable("f", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
        Field.nullable("s", ArrowType.Utf8.INSTANCE),
        Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
        Field.nullable("n", new ArrowType.Int(64, true)));
    try (LocalObjectStore store = new LocalObjectStore(dir.resolve("store"))) {
      DatasetSnapshot snapshot = DatasetSnapshot.latest(store, "nulls");
      assertThat(snapshot.partitions()).hasSize(2);
      for (Partition partition : snapshot.partitions()) {
        for (DataFile file : partition.files()) {
          assertThat(file.physicalSchema().getFields()).as("physical schema of %s in the log", file).isEqualTo(declared);
        }
      }
      assertThat(CommonMetadataFile.read(store, DatasetKeys.commonMetadataKey("nulls")).getFields())
          .extracting(f -> f.getName() + ": " + f.getType())
          .containsExactly("grp: Utf8", "f: FloatingPoint(DOUBLE)", "id: Int(64, true)", "n: Int(64, true)",
              "s: Utf8", "ts: Timestamp(MICROSECOND, null)");
    }
  }

  @Test
  void pandasReadsOurAllNullFileAsPlateausOwnFile() {
    PyChecks checks = PyChecks.run("""
        import json
        import pandas as pd, pyarrow as pa, pyarrow.parquet as pq
        root = sys.argv[1]
        meta = json.load(open(root + "/store/nulls.by-dataset-metadata.json"))
        files = {label.split("/")[0]: root + "/store/" + part["files"]["table"]
                 for label, part in meta["partitions"].items()}
        ours, plateau = files["grp=typed"], root + "/plateau-typed.parquet"
        columns = ["f", "s", "ts"]
        def dtypes(path, **options):
            frame = pq.read_table(path, columns=columns).to_pandas(**options)
            return {c: str(frame[c].dtype) for c in columns}
        for name, options in [("default", {}), ("plateau", {"coerce_temporal_nanoseconds": True})]:
            check("dtypes " + name, lambda: (dtypes(ours, **options) == dtypes(plateau, **options),
                  f"ours {dtypes(ours, **options)}, plateau {dtypes(plateau, **options)}"))
        def footer():
            schema = pq.read_schema(ours)
            return ([str(schema.field(c).type) for c in columns] == ["double", "string", "timestamp[us]"]
                    and pq.read_table(ours).column("f").null_count == 3, str(schema))
        check("footer", footer)
        def concatenated():
            # plateau reads each file and concatenates the frames
            frame = pd.concat([pq.read_table(files[p]).to_pandas(coerce_temporal_nanoseconds=True)
                               for p in ["grp=values", "grp=typed"]])
            got = {c: str(frame[c].dtype) for c in columns}
            return got == {"f": "float64", "s": "str", "ts": "datetime64[ns]"}, got
        check("concatenated", concatenated)
        """, dir.toString());
    for (String check : List.of("dtypes default", "dtypes plateau", "footer", "concatenated")) {
      checks.assertOk(check);
    }
  }
}
