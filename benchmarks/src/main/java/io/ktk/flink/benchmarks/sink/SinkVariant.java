package io.ktk.flink.benchmarks.sink;

import io.ktk.flink.sink.KartothekSink;
import io.ktk.flink.sink.config.Compression;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.formats.parquet.row.ParquetRowDataBuilder;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.sink.filesystem.BucketAssigner;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.SimpleVersionedStringSerializer;
import org.apache.flink.streaming.api.functions.sink.filesystem.rollingpolicies.OnCheckpointRollingPolicy;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.data.RowData;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.IcebergSink;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.apache.parquet.io.LocalInputFile;

/**
 * The sinks compared, each adding itself behind the same generated rows and reading back what it
 * committed, so that a variant that lost rows cannot post a good figure. All write Snappy Parquet
 * partitioned by {@code p}, without a shuffle (no keyBy, no distribution: each writer subtask
 * writes the partitions of the rows it gets).
 */
public enum SinkVariant {
  /** The generator alone, into Flink's DiscardingSink: the ceiling any sink can reach here. */
  GENERATOR_ONLY("generator only (DiscardingSink)") {
    @Override
    void addSink(DataStream<RowData> rows, Path out) {
      rows.sinkTo(new DiscardingSink<>()).name("discard");
    }

    @Override
    long committedRows(Path out) {
      return -1;
    }

    @Override
    Stream<Path> dataFiles(Path out) {
      return Stream.empty();
    }
  },

  /** This project's sink with its defaults (128 MB budget per writer subtask, Snappy). */
  KARTOTHEK("KartothekSink") {
    @Override
    void addSink(DataStream<RowData> rows, Path out) {
      KartothekSink sink = KartothekSink.forRowData(BenchRows.rowType())
          .store(out.toUri().toString())
          .dataset(DATASET)
          .partitionBy("p")
          .compression(Compression.SNAPPY)
          .build();
      rows.sinkTo(sink).name("kartothek");
    }

    @Override
    long committedRows(Path out) throws IOException {
      try (ObjectStore store = ObjectStores.open(out.toUri().toString())) {
        return new LogReader(store, DATASET).latest().files().values().stream().mapToLong(DataFile::rows).sum();
      }
    }

    @Override
    Stream<Path> dataFiles(Path out) throws IOException {
      return parquetFiles(out.resolve(DATASET).resolve("table"));
    }
  },

  /** Flink's FileSink with flink-parquet's RowData writer, a bucket per value of p. */
  FILE_SINK("FileSink + flink-parquet") {
    @Override
    void addSink(DataStream<RowData> rows, Path out) {
      org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration();
      conf.set("parquet.compression", "SNAPPY");
      FileSink<RowData> sink = FileSink
          .forBulkFormat(new org.apache.flink.core.fs.Path(out.toUri()),
              ParquetRowDataBuilder.createWriterFactory(BenchRows.rowType(), conf, true))
          .withBucketAssigner(new PartitionBuckets())
          .withRollingPolicy(OnCheckpointRollingPolicy.build())
          .withOutputFileConfig(OutputFileConfig.builder().withPartSuffix(".parquet").build())
          .build();
      rows.sinkTo(sink).name("filesink");
    }

    @Override
    long committedRows(Path out) throws IOException {
      long rows = 0;
      try (Stream<Path> files = dataFiles(out)) {
        for (Path file : (Iterable<Path>) files::iterator) {
          // this project's footer reader: parquet-java's builds a Hadoop Configuration per file
          try (ParquetRowsReader reader = ParquetRowsReader.open(new LocalInputFile(file))) {
            rows += reader.rowCount();
          }
        }
      }
      return rows;
    }

    @Override
    Stream<Path> dataFiles(Path out) throws IOException {
      return parquetFiles(out);
    }
  },

  /** Iceberg's Flink sink (the Sink V2 one), a table of a Hadoop catalog on the local directory, identity-partitioned by p. */
  ICEBERG("Iceberg IcebergSink (Hadoop catalog)") {
    @Override
    void addSink(DataStream<RowData> rows, Path out) {
      HadoopCatalog catalog = new HadoopCatalog(new org.apache.hadoop.conf.Configuration(), warehouse(out));
      Schema schema = new Schema(
          Types.NestedField.optional(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "p", Types.StringType.get()),
          Types.NestedField.optional(3, "c", Types.LongType.get()),
          Types.NestedField.optional(4, "v", Types.DoubleType.get()),
          Types.NestedField.optional(5, "s", Types.StringType.get()),
          Types.NestedField.optional(6, "ts", Types.TimestampType.withoutZone()));
      Table table = catalog.createTable(TABLE, schema, PartitionSpec.builderFor(schema).identity("p").build(),
          Map.of("write.parquet.compression-codec", "snappy", "write.distribution-mode", "none"));
      IcebergSink.forRowData(rows)
          .tableLoader(TableLoader.fromHadoopTable(table.location(), new org.apache.hadoop.conf.Configuration()))
          .distributionMode(DistributionMode.NONE)
          .writeParallelism(rows.getParallelism())
          .append();
    }

    @Override
    long committedRows(Path out) {
      Table table = new HadoopCatalog(new org.apache.hadoop.conf.Configuration(), warehouse(out)).loadTable(TABLE);
      return table.currentSnapshot() == null ? 0 : Long.parseLong(table.currentSnapshot().summary().get("total-records"));
    }

    @Override
    Stream<Path> dataFiles(Path out) throws IOException {
      return parquetFiles(out);
    }
  };

  static final String DATASET = "bench";
  private static final TableIdentifier TABLE = TableIdentifier.of("db", "bench");

  private final String title;

  SinkVariant(String title) {
    this.title = title;
  }

  public String title() {
    return title;
  }

  /** Adds the sink behind {@code rows}, writing below {@code out}. */
  abstract void addSink(DataStream<RowData> rows, Path out) throws IOException;

  /** The rows the sink committed below {@code out}, read back from its own metadata or the files; -1: none kept. */
  abstract long committedRows(Path out) throws IOException;

  /** The data files the sink left below {@code out} (committed ones; in-progress files are hidden). */
  abstract Stream<Path> dataFiles(Path out) throws IOException;

  private static String warehouse(Path out) {
    return out.resolve("warehouse").toUri().toString();
  }

  private static Stream<Path> parquetFiles(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return Stream.empty();
    }
    return Files.walk(dir).filter(Files::isRegularFile).filter(f -> {
      String name = f.getFileName().toString();
      return name.endsWith(".parquet") && !name.startsWith(".");
    });
  }

  /** Lists the variants named in {@code text} (comma-separated, case-insensitive, '-' for '_'). */
  public static List<SinkVariant> parse(String text) {
    return Stream.of(text.split(",")).map(String::trim).filter(s -> !s.isEmpty())
        .map(s -> valueOf(s.toUpperCase(java.util.Locale.ROOT).replace('-', '_'))).toList();
  }

  /** FileSink's bucket: the directory {@code p=<value>}, as a Hive-style partition. */
  private static final class PartitionBuckets implements BucketAssigner<RowData, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public String getBucketId(RowData row, Context context) {
      return "p=" + row.getString(1).toString();
    }

    @Override
    public SimpleVersionedSerializer<String> getSerializer() {
      return SimpleVersionedStringSerializer.INSTANCE;
    }
  }
}
