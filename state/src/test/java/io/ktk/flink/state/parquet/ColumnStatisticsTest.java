package io.ktk.flink.state.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.Python;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ColumnStatisticsTest {
  @TempDir Path dir;

  private static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.nullable(type), null);
  }

  @Test
  void statisticsOfRowGroupsWrittenInJavaAreTypedValues() throws IOException {
    Schema schema = new Schema(List.of(
        field("n", new ArrowType.Int(64, true)),
        field("u", new ArrowType.Int(64, false)),
        field("x", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
        field("s", ArrowType.Utf8.INSTANCE),
        field("day", new ArrowType.Date(DateUnit.DAY)),
        field("dec", new ArrowType.Decimal(20, 2, 128))));
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      try (ParquetRowsWriter writer = ParquetRowsWriter.create(store, "f.parquet", schema, Map.of(),
          ParquetWriteOptions.defaults())) {
        writer.write(Arrays.asList(-5L, 1L, 2.5, "b", LocalDate.of(2024, 1, 2), new BigDecimal("-1.50")));
        writer.write(Arrays.asList(7L, -1L, -0.0, "é", LocalDate.of(2024, 1, 1), new BigDecimal("12.00")));
        writer.endRowGroup();
        writer.write(Arrays.asList(null, null, null, null, null, null));
        writer.write(Arrays.asList(null, null, null, null, null, null));
        writer.endRowGroup();
        writer.endRowGroup(); // nothing buffered: no empty group
      }
      try (ParquetRowsReader reader = ParquetRowsReader.open(store, "f.parquet")) {
        assertThat(reader.rowGroups()).hasSize(2);
        assertThat(reader.statistics(0, "n")).isEqualTo(new ColumnStatistics(2, 0, nanCountOf(reader, 0, "n"), -5L, 7L));
        // unsigned: 2^64 - 1 is the maximum, held as the unsigned bits
        assertThat(reader.statistics(0, "u").min()).isEqualTo(1L);
        assertThat(reader.statistics(0, "u").max()).isEqualTo(-1L);
        assertThat(reader.statistics(0, "x").max()).isEqualTo(2.5);
        assertThat((Double) reader.statistics(0, "x").min() == 0.0).as("min is a zero of either sign").isTrue();
        assertThat(reader.statistics(0, "s").min()).isEqualTo("b");
        assertThat(reader.statistics(0, "s").max()).isEqualTo("é");
        assertThat(reader.statistics(0, "day").min()).isEqualTo(LocalDate.of(2024, 1, 1));
        assertThat(reader.statistics(0, "dec").min()).isEqualTo(new BigDecimal("-1.50"));
        assertThat(reader.statistics(0, "dec").max()).isEqualTo(new BigDecimal("12.00"));
        for (String column : List.of("n", "u", "x", "s", "day", "dec")) {
          assertThat(reader.statistics(1, column).allNull()).as(column).isTrue();
          assertThat(reader.statistics(0, column).allNull()).as(column).isFalse();
        }
        assertThat(reader.statistics(0, "nope")).isNull();
      }
    }
  }

  @Test
  void floatingPointBoundsWrittenInJavaAreSeenByPyarrowWithoutNan() throws IOException {
    Schema schema = new Schema(List.of(
        field("d", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
        field("f", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))));
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      try (ParquetRowsWriter writer = ParquetRowsWriter.create(store, "f.parquet", schema, Map.of(),
          ParquetWriteOptions.defaults())) {
        writer.write(Arrays.asList(Double.NaN, Float.NaN));
        writer.write(Arrays.asList(12.5, 1.5f));
        writer.write(Arrays.asList(null, null));
        writer.write(Arrays.asList(-3.0, -2.5f));
        writer.endRowGroup();
        writer.write(Arrays.asList(Double.NaN, Float.NaN)); // a group of NaN and null only
        writer.write(Arrays.asList(null, null));
        writer.endRowGroup();
        writer.write(Arrays.asList(0.0, 0.0f)); // zeros: min -0.0, max +0.0 whatever the sign written
        writer.write(Arrays.asList(0.0, 0.0f));
      }
      String stats = Python.run("""
          import sys, pyarrow.parquet as pq
          m = pq.ParquetFile(sys.argv[1]).metadata
          for g in range(m.num_row_groups):
              for c in range(m.num_columns):
                  s = m.row_group(g).column(c).statistics
                  bounds = f"{s.min!r} {s.max!r}" if s.has_min_max else "none"
                  print(g, m.row_group(g).column(c).path_in_schema, bounds, s.null_count)
          """, dir.resolve("f.parquet").toString());
      assertThat(stats.lines()).containsExactly(
          "0 d -3.0 12.5 1", "0 f -2.5 1.5 1",
          "1 d none 1", "1 f none 1",
          "2 d -0.0 0.0 0", "2 f -0.0 0.0 0");
      try (ParquetRowsReader reader = ParquetRowsReader.open(store, "f.parquet")) {
        assertThat(reader.statistics(0, "d")).isEqualTo(new ColumnStatistics(4, 1, 1, -3.0, 12.5));
        assertThat(reader.statistics(0, "f")).isEqualTo(new ColumnStatistics(4, 1, 1, -2.5, 1.5));
        assertThat(reader.statistics(1, "d").allNaN()).isTrue();
        assertThat(reader.statistics(2, "d").mayHoldNaN()).isFalse();
      }
    }
  }

  private static long nanCountOf(ParquetRowsReader reader, int group, String column) {
    return reader.statistics(group, column).nanCount();
  }

  @Test
  void statisticsOfPyarrowFilesKeepNanOutOfTheBoundsAndUnsignedAndNullTypesRight() throws IOException {
    Python.run("""
        import sys, pyarrow as pa, pyarrow.parquet as pq
        t = pa.table({
            'x': pa.array([1.0, float('nan'), None, 3.0, float('nan'), None]),
            'u': pa.array([1, 2**64 - 1, 5, 6, 7, 8], pa.uint64()),
            'u8': pa.array([200, 3, 5, 6, 7, 8], pa.uint8()),
            's': pa.array(['a', 'é', 'b', None, 'z', 'y']),
            'nothing': pa.nulls(6),
        })
        pq.write_table(t, sys.argv[1], row_group_size=2)
        """, dir.resolve("py.parquet").toString());
    try (LocalObjectStore store = new LocalObjectStore(dir);
        ParquetRowsReader reader = ParquetRowsReader.open(store, "py.parquet")) {
      assertThat(reader.rowGroups()).hasSize(3);
      ColumnStatistics first = reader.statistics(0, "x");
      assertThat(first.min()).isEqualTo(1.0);
      assertThat(first.max()).isEqualTo(1.0);
      assertThat(first.mayHoldNaN()).as("the NaN row is not in the bounds, and no count says it is absent").isTrue();
      assertThat(reader.statistics(2, "x").allNull()).isFalse();
      assertThat(reader.statistics(0, "u").max()).isEqualTo(-1L);
      assertThat(reader.statistics(0, "u8").min()).isEqualTo(3L);
      assertThat(reader.statistics(0, "u8").max()).isEqualTo(200L);
      assertThat(reader.statistics(0, "s").max()).isEqualTo("é");
      assertThat(reader.statistics(1, "s").nullCount()).isEqualTo(1);
      for (int group = 0; group < 3; group++) {
        assertThat(reader.statistics(group, "nothing").allNull()).isTrue();
      }
    }
  }
}
