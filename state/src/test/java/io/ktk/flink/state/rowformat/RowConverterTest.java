package io.ktk.flink.state.rowformat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.KtkValidationException;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Caller mistakes and unsupported types get errors that say what is wrong. */
class RowConverterTest {
  private static final Field INT64 = RandomColumns.scalar("id", new ArrowType.Int(64, true));
  private static final Field INT32 = RandomColumns.scalar("small", new ArrowType.Int(32, true));

  private static BufferAllocator allocator;

  @BeforeAll
  static void openAllocator() {
    allocator = new RootAllocator();
  }

  @AfterAll
  static void closeAllocator() {
    allocator.close();
  }

  @Test
  void unsupportedArrowTypesAreRejectedNamingTheColumn() {
    Field half = RandomColumns.scalar("h", new ArrowType.FloatingPoint(FloatingPointPrecision.HALF));
    Field wide = RandomColumns.scalar("w", new ArrowType.Decimal(40, 2, 256));
    Field duration = RandomColumns.scalar("d", new ArrowType.Duration(TimeUnit.SECOND));
    Field nested = new Field("s", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(duration));
    assertThatThrownBy(() -> RowConverter.ordered(List.of(SortField.ascending(half))))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("Cannot build row format for column 'h': type float16");
    assertThatThrownBy(() -> RowConverter.unordered(List.of(wide)))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("column 'w'").hasMessageContaining("only decimal128");
    assertThatThrownBy(() -> RowConverter.ordered(List.of(SortField.ascending(nested))))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("column 'd': type Duration(SECOND) is not supported");
  }

  @Test
  void nestedTypesNeedAFieldWithChildren() {
    assertThatThrownBy(() -> SortField.of(ArrowType.List.INSTANCE, false, true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nested types need an Arrow Field with children");
  }

  @Test
  void encodingRejectsColumnsThatDoNotMatchTheKeyFields() {
    RowConverter converter = RowConverter.ordered(List.of(SortField.ascending(INT64)));
    try (FieldVector small = ArrowValues.vector(allocator, INT32, List.of(1L));
        FieldVector a = ArrowValues.vector(allocator, INT64, List.of(1L));
        FieldVector b = ArrowValues.vector(allocator, INT64, List.of(1L, 2L))) {
      assertThatThrownBy(() -> VectorRows.encode(converter, List.of(small)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("column 0 ('small') has type Int(32, true)")
          .hasMessageContaining("key field 'id' has Int(64, true)");
      assertThatThrownBy(() -> VectorRows.encode(converter, List.of(a, b)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("2 columns given for 1 key fields");
      RowConverter two = RowConverter.ordered(
          List.of(SortField.ascending(INT64), SortField.ascending(INT64)));
      assertThatThrownBy(() -> VectorRows.encode(two, List.of(a, b)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("column 1 ('id') has 2 values, column 0 has 1");
    }
  }

  @Test
  void decodingRejectsRowsOfAnotherConverter() {
    RowConverter one = RowConverter.ordered(List.of(SortField.ascending(INT64)));
    RowConverter other = RowConverter.ordered(List.of(SortField.ascending(INT64)));
    try (FieldVector a = ArrowValues.vector(allocator, INT64, List.of(1L))) {
      Rows rows = VectorRows.encode(one, List.of(a));
      assertThatThrownBy(() -> VectorRows.decode(other, rows, allocator))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("encoded by another converter");
    }
  }

  @Test
  void emptyBatchesEncodeAndDecode() {
    RowConverter converter = RowConverter.ordered(List.of(SortField.ascending(INT64)));
    try (FieldVector empty = ArrowValues.vector(allocator, INT64, List.of())) {
      Rows rows = VectorRows.encode(converter, List.of(empty));
      assertThat(rows.size()).isZero();
      assertThat(rows.sortedIndices()).isEmpty();
      List<FieldVector> decoded = VectorRows.decode(converter, rows, allocator);
      assertThat(decoded).singleElement().satisfies(v -> assertThat(v.getValueCount()).isZero());
      decoded.forEach(FieldVector::close);
    }
  }

  @Test
  void flinkTypesMustMatchTheKeyFields() {
    RowConverter converter = RowConverter.ordered(List.of(SortField.ascending(INT64)));
    RowType rowType = RowType.of(
        new LogicalType[] {new VarCharType(10), new IntType()}, new String[] {"name", "id"});
    assertThatThrownBy(() -> converter.rowDataEncoder(rowType, 1))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("Cannot encode row key column 'id': Flink type INT does not match"
            + " the key's Arrow type Int(64, true)");
    assertThatThrownBy(() -> converter.rowDataEncoder(rowType, 0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2 positions given for 1 key columns");
    assertThatThrownBy(() -> converter.rowDataEncoder(rowType, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("position 2 is out of range");
    RowType maps = RowType.of(new MapType(new IntType(), new IntType()));
    assertThatThrownBy(() -> converter.rowDataEncoder(maps))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("Flink type MAP<INT, INT> is not supported in row keys");
  }

  @Test
  void flinkValuesThatWouldLosePrecisionAreRejected() {
    Field micros = RandomColumns.scalar("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null));
    Field seconds = RandomColumns.scalar("t", new ArrowType.Time(TimeUnit.SECOND, 32));
    RowConverter converter = RowConverter.ordered(
        List.of(SortField.ascending(micros), SortField.ascending(seconds)));
    RowDataEncoder encoder = converter.rowDataEncoder(RowType.of(
        new LogicalType[] {new TimestampType(9), new TimeType(0)}, new String[] {"ts", "t"}));
    RowBuffer buffer = new RowBuffer();
    encoder.encode(GenericRowData.of(TimestampData.fromEpochMillis(1, 2000), 5000), buffer);
    assertThat(buffer.length()).isEqualTo(9 + 5);
    assertThatThrownBy(() -> encoder.encode(
        GenericRowData.of(TimestampData.fromEpochMillis(1, 2001), 5000), buffer))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("Cannot encode row key column 'ts': timestamp"
            + " 1970-01-01T00:00:00.001002001 does not fit Timestamp(MICROSECOND, null) without"
            + " losing precision");
    assertThatThrownBy(() -> encoder.encode(
        GenericRowData.of(TimestampData.fromEpochMillis(1, 2000), 5001), buffer))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("column 't': time of day 5001 ms does not fit Time(SECOND, 32)");
  }
}
