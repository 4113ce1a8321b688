package io.ktk.flink.sink.writer;

import io.ktk.flink.state.types.TimestampCoercion;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

/**
 * Values of Flink rows as the project's typed Java values (Long, Double, String, byte[],
 * LocalDate, LocalDateTime, Instant, LocalTime, BigDecimal, Boolean): what partition labels and
 * index entries are made of. Called once per new partition or new index value, never per record.
 */
final class RowFieldValues {
  private RowFieldValues() {}

  /**
   * The typed value of column {@code pos}, or null. FLOAT stays a {@code Float} when {@code
   * keepFloat} (a partition label renders it as numpy renders a float32); index values use
   * {@code Double} like every float.
   */
  static Object typed(String dataset, RowType rowType, RowData row, int pos, boolean keepFloat) {
    if (row.isNullAt(pos)) {
      return null;
    }
    LogicalType type = rowType.getTypeAt(pos);
    String column = rowType.getFieldNames().get(pos);
    return switch (type.getTypeRoot()) {
      case BOOLEAN -> row.getBoolean(pos);
      case TINYINT -> (long) row.getByte(pos);
      case SMALLINT -> (long) row.getShort(pos);
      case INTEGER -> (long) row.getInt(pos);
      case BIGINT -> row.getLong(pos);
      case FLOAT -> keepFloat ? (Object) row.getFloat(pos) : (Object) (double) row.getFloat(pos);
      case DOUBLE -> row.getDouble(pos);
      case CHAR, VARCHAR -> row.getString(pos).toString();
      case BINARY, VARBINARY -> row.getBinary(pos).clone();
      case DATE -> LocalDate.ofEpochDay(row.getInt(pos));
      case TIME_WITHOUT_TIME_ZONE -> LocalTime.ofNanoOfDay(row.getInt(pos) * 1_000_000L);
      case TIMESTAMP_WITHOUT_TIME_ZONE -> {
        long micros = micros(dataset, column, row, pos, type);
        yield LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
            (int) Math.floorMod(micros, 1_000_000L) * 1000, ZoneOffset.UTC);
      }
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
        long micros = micros(dataset, column, row, pos, type);
        yield Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
      }
      case DECIMAL -> {
        DecimalType decimal = (DecimalType) type;
        yield row.getDecimal(pos, decimal.getPrecision(), decimal.getScale()).toBigDecimal();
      }
      default -> throw new IllegalStateException("Cannot read a key value of type " + type.asSummaryString());
    };
  }

  private static long micros(String dataset, String column, RowData row, int pos, LogicalType type) {
    TimestampData timestamp = row.getTimestamp(pos, LogicalTypeChecks.getPrecision(type));
    return TimestampCoercion.toMicros(dataset, column, timestamp);
  }

  /**
   * A record as text for the dead-letter output and error messages, e.g. {@code +I{id=1, p=null,
   * ts=2021-01-01T00:00:00.000000100}}: values as Flink prints them, binary as hex.
   */
  static String render(RowType rowType, RowData row) {
    StringBuilder text = new StringBuilder(row.getRowKind().shortString()).append('{');
    for (int pos = 0; pos < rowType.getFieldCount(); pos++) {
      if (pos > 0) {
        text.append(", ");
      }
      text.append(rowType.getFieldNames().get(pos)).append('=');
      Object value = RowData.createFieldGetter(rowType.getTypeAt(pos), pos).getFieldOrNull(row);
      text.append(value instanceof byte[] bytes ? "0x" + HexFormat.of().formatHex(bytes) : String.valueOf(value));
    }
    return text.append('}').toString();
  }
}
