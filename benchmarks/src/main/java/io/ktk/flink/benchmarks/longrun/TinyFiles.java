package io.ktk.flink.benchmarks.longrun;

import io.ktk.flink.sink.writer.DataFileFooter;
import io.ktk.flink.state.parquet.BytesOutputFile;
import io.ktk.flink.state.parquet.ParquetRowsWriter;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import java.io.IOException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The data files of the simulation: a few tiny Parquet files per value of the second partition
 * key, written once, whose bytes every checkpoint stores again under new labels (partition columns
 * are not stored in the files, so the same bytes serve every day). Each has {@value #ROWS_PER_FILE}
 * rows of {@code (customer, ts, value)}; {@code customer} is the indexed column, with
 * {@value #CUSTOMERS} values, {@value #CUSTOMERS_PER_REGION} of them in each region, so that the
 * index of a compacted partition lists a few dozen values, as an index on a column that follows the
 * partitioning does.
 */
final class TinyFiles {
  static final int REGIONS = 20;
  static final int CUSTOMERS = 1_000;
  static final int CUSTOMERS_PER_REGION = CUSTOMERS / REGIONS;
  static final int ROWS_PER_FILE = 4;
  private static final int FILES_PER_REGION = 8;

  static final Schema SCHEMA = new Schema(List.of(
      field("day", new ArrowType.Date(DateUnit.DAY)),
      field("region", ArrowType.Utf8.INSTANCE),
      field("customer", new ArrowType.Int(64, true)),
      field("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
      field("value", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))));
  static final List<String> PARTITION_KEYS = List.of("day", "region");
  static final String INDEX_COLUMN = "customer";
  static final Schema PHYSICAL = new Schema(SCHEMA.getFields().subList(2, 5));

  /** One prewritten file: its bytes and the customers it holds. */
  record TinyFile(byte[] bytes, SortedSet<Long> customers) {}

  private final List<List<TinyFile>> byRegion = new ArrayList<>();

  TinyFiles(long seed) throws IOException {
    Random random = new Random(seed);
    LocalDateTime start = LocalDateTime.of(2024, 1, 1, 0, 0);
    for (int region = 0; region < REGIONS; region++) {
      List<TinyFile> files = new ArrayList<>();
      for (int f = 0; f < FILES_PER_REGION; f++) {
        BytesOutputFile out = new BytesOutputFile("tiny file " + region + "/" + f);
        SortedSet<Long> customers = new TreeSet<>();
        try (ParquetRowsWriter writer = ParquetRowsWriter.create(out, PHYSICAL, DataFileFooter.keyValues(PHYSICAL),
            ParquetWriteOptions.defaults())) {
          for (int row = 0; row < ROWS_PER_FILE; row++) {
            long customer = (long) region * CUSTOMERS_PER_REGION + random.nextInt(CUSTOMERS_PER_REGION);
            customers.add(customer);
            writer.write(List.of(customer, start.plusSeconds(random.nextInt(86_400)), random.nextDouble()));
          }
        }
        files.add(new TinyFile(out.toByteArray(), customers));
      }
      byRegion.add(files);
    }
  }

  static String region(int region) {
    return String.format("r%02d", region);
  }

  TinyFile pick(int region, Random random) {
    List<TinyFile> files = byRegion.get(region);
    return files.get(random.nextInt(files.size()));
  }

  private static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.nullable(type), null);
  }
}
