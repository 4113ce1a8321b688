package io.ktk.flink.source.rowdata;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.source.engine.ResultBatch;
import io.ktk.flink.state.vector.DoubleVector;
import io.ktk.flink.state.vector.LongType;
import io.ktk.flink.state.vector.LongVector;
import io.ktk.flink.state.vector.ObjectVector;
import io.ktk.flink.state.vector.TypedVector;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

/**
 * Each column type read from the vector kinds that hold it, with the edge values where a
 * conversion could go wrong: before the epoch, every timestamp unit, unsigned 64-bit values,
 * wide decimals, and typed values where a file's column came as objects.
 */
class RowDataFormatTest {
  private final List<TypedVector> vectors = new ArrayList<>();
  private final List<LogicalType> types = new ArrayList<>();

  /** Adds a column of {@code type} holding {@code vector}; returns its position. */
  private int column(DataType type, TypedVector vector) {
    vectors.add(vector);
    types.add(type.getLogicalType());
    return vectors.size() - 1;
  }

  private IntFunction<RowData> records(RowKind kind) {
    List<Field> fields = new ArrayList<>();
    for (int i = 0; i < vectors.size(); i++) {
      fields.add(new Field("c" + i, FieldType.nullable(ArrowType.Utf8.INSTANCE), null)); // names only
    }
    int rows = vectors.get(0).size();
    int[] positions = new int[vectors.size()];
    for (int i = 0; i < positions.length; i++) {
      positions[i] = i;
    }
    return RowDataFormat.of(types, positions).records(ResultBatch.of(new Schema(fields), vectors, rows), kind);
  }

  private static LongVector longs(LongType type, Long... values) {
    LongVector vector = new LongVector(type, values.length);
    for (Long value : values) {
      if (value == null) {
        vector.appendNull();
      } else {
        vector.append(value);
      }
    }
    return vector;
  }

  @Test
  void integersOfEveryWidth() {
    LongVector values = longs(LongType.INTEGER, -2L, null, 120L);
    int tiny = column(DataTypes.TINYINT(), values);
    int small = column(DataTypes.SMALLINT(), values);
    int integer = column(DataTypes.INT(), values);
    int big = column(DataTypes.BIGINT(), values);
    IntFunction<RowData> records = records(RowKind.INSERT);

    RowData first = records.apply(0);
    assertThat(first.getByte(tiny)).isEqualTo((byte) -2);
    assertThat(first.getShort(small)).isEqualTo((short) -2);
    assertThat(first.getInt(integer)).isEqualTo(-2);
    assertThat(first.getLong(big)).isEqualTo(-2L);
    assertThat(records.apply(1).isNullAt(integer)).isTrue();
    assertThat(records.apply(0).isNullAt(integer)).isFalse();
    assertThat(records.apply(2).getInt(integer)).isEqualTo(120);
    assertThat(first.getArity()).isEqualTo(4);
    assertThat(first.getRowKind()).isEqualTo(RowKind.INSERT);
  }

  @Test
  void timestampsOfEveryUnitBeforeAndAfterTheEpoch() {
    int nanos = column(DataTypes.TIMESTAMP(9), longs(LongType.timestamp(1, false), -1L, 1_500_000_123L));
    int micros = column(DataTypes.TIMESTAMP(6), longs(LongType.timestamp(1_000, false), -1L, 1_500_001L));
    int millis = column(DataTypes.TIMESTAMP(3), longs(LongType.timestamp(1_000_000, false), -1L, 1_501L));
    int seconds = column(DataTypes.TIMESTAMP(0), longs(LongType.timestamp(1_000_000_000, false), -1L, 2L));
    int instants = column(DataTypes.TIMESTAMP_LTZ(6), longs(LongType.timestamp(1_000, true), -1L, 1_500_001L));
    IntFunction<RowData> records = records(RowKind.INSERT);

    RowData before = records.apply(0);
    LocalDateTime epoch = LocalDateTime.of(1970, 1, 1, 0, 0);
    assertThat(before.getTimestamp(nanos, 9)).isEqualTo(TimestampData.fromLocalDateTime(epoch.minusNanos(1)));
    assertThat(before.getTimestamp(micros, 6)).isEqualTo(TimestampData.fromLocalDateTime(epoch.minusNanos(1_000)));
    assertThat(before.getTimestamp(millis, 3)).isEqualTo(TimestampData.fromLocalDateTime(epoch.minusNanos(1_000_000)));
    assertThat(before.getTimestamp(seconds, 0)).isEqualTo(TimestampData.fromLocalDateTime(epoch.minusSeconds(1)));
    assertThat(before.getTimestamp(instants, 6)).isEqualTo(TimestampData.fromInstant(Instant.ofEpochSecond(-1,
        999_999_000)));
    RowData after = records.apply(1);
    assertThat(after.getTimestamp(nanos, 9)).isEqualTo(TimestampData.fromLocalDateTime(epoch.plusNanos(1_500_000_123)));
    assertThat(after.getTimestamp(micros, 6)).isEqualTo(TimestampData.fromLocalDateTime(epoch.plusNanos(1_500_001_000)));
    assertThat(after.getTimestamp(millis, 3)).isEqualTo(TimestampData.fromLocalDateTime(epoch.plusNanos(1_501_000_000)));
    assertThat(after.getTimestamp(seconds, 0)).isEqualTo(TimestampData.fromLocalDateTime(epoch.plusSeconds(2)));
    assertThat(after.getTimestamp(instants, 6)).isEqualTo(TimestampData.fromInstant(Instant.ofEpochSecond(1,
        500_001_000)));
  }

  @Test
  void datesTimesAndDecimals() {
    int date = column(DataTypes.DATE(), longs(LongType.DATE, -1L));
    int time = column(DataTypes.TIME(3), longs(LongType.TIME, 3_600_000_999_999L)); // 01:00:00.000999999
    int narrow = column(DataTypes.DECIMAL(5, 2), longs(LongType.decimal(2), -12_345L));
    int wide = column(DataTypes.DECIMAL(38, 2), longs(LongType.decimal(2), -12_345L));
    int unsigned = column(DataTypes.DECIMAL(20, 0), longs(LongType.UNSIGNED_64, -1L));
    RowData row = records(RowKind.INSERT).apply(0);

    assertThat(row.getInt(date)).isEqualTo(-1);
    assertThat(row.getInt(time)).isEqualTo(3_600_000);
    assertThat(row.getDecimal(narrow, 5, 2)).isEqualTo(DecimalData.fromBigDecimal(new BigDecimal("-123.45"), 5, 2));
    assertThat(row.getDecimal(wide, 38, 2)).isEqualTo(DecimalData.fromBigDecimal(new BigDecimal("-123.45"), 38, 2));
    assertThat(row.getDecimal(unsigned, 20, 0))
        .isEqualTo(DecimalData.fromBigDecimal(new BigDecimal("18446744073709551615"), 20, 0));
  }

  @Test
  void doublesAlsoAsFloats() {
    DoubleVector values = new DoubleVector(2);
    values.append(0.5);
    values.appendNull();
    int doubles = column(DataTypes.DOUBLE(), values);
    int floats = column(DataTypes.FLOAT(), values);
    IntFunction<RowData> records = records(RowKind.INSERT);

    assertThat(records.apply(0).getDouble(doubles)).isEqualTo(0.5);
    assertThat(records.apply(0).getFloat(floats)).isEqualTo(0.5f);
    assertThat(records.apply(1).isNullAt(floats)).isTrue();
  }

  @Test
  void typedValuesAreConvertedWhenRead() {
    ObjectVector strings = new ObjectVector(2);
    strings.append("zürich");
    strings.append(null);
    ObjectVector longsAsObjects = new ObjectVector(2); // a column whose files came as different vector kinds
    longsAsObjects.append(7L);
    longsAsObjects.append(null);
    ObjectVector mixed = new ObjectVector(2);
    mixed.append(new byte[] {1, 2});
    mixed.append(null);
    ObjectVector booleans = new ObjectVector(2);
    booleans.append(true);
    booleans.append(null);
    ObjectVector dates = new ObjectVector(2);
    dates.append(LocalDate.of(1969, 12, 31));
    dates.append(null);
    int string = column(DataTypes.STRING(), strings);
    int integer = column(DataTypes.INT(), longsAsObjects);
    int binary = column(DataTypes.BYTES(), mixed);
    int bool = column(DataTypes.BOOLEAN(), booleans);
    int date = column(DataTypes.DATE(), dates);
    IntFunction<RowData> records = records(RowKind.DELETE);

    RowData row = records.apply(0);
    assertThat(row.getString(string)).isEqualTo(StringData.fromString("zürich"));
    assertThat(row.getInt(integer)).isEqualTo(7);
    assertThat(row.getBinary(binary)).containsExactly(1, 2);
    assertThat(row.getBoolean(bool)).isTrue();
    assertThat(row.getInt(date)).isEqualTo(-1);
    assertThat(row.getRowKind()).isEqualTo(RowKind.DELETE);
    RowData nulls = records.apply(1);
    for (int column = 0; column < 5; column++) {
      assertThat(nulls.isNullAt(column)).isTrue();
    }
  }
}
