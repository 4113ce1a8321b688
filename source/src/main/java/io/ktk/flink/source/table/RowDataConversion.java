package io.ktk.flink.source.table;

import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;

/**
 * Turns the source's rows (typed values by the project's convention, the query's columns) into
 * Flink's internal rows of the table's projected columns, and drops rows outside the partitions
 * Flink's partition pruning kept when the query's conditions cannot say exactly which (several
 * partition columns).
 *
 * <p>Conversions: {@code Long} to the integer types, or for uint64 columns (read as {@code
 * DECIMAL(20, 0)}) its unsigned value; {@code Double} to {@code DOUBLE}/{@code FLOAT}; strings to
 * {@code StringData}; dates to days since the epoch; times to milliseconds of the day; timestamps
 * to {@code TimestampData}; decimals to {@code DecimalData} of the column's precision and scale.
 */
final class RowDataConversion implements FlatMapFunction<Row, RowData> {
  private static final long serialVersionUID = 1L;

  /** How one output column is made from the row's value. */
  private interface ValueConverter extends Serializable {
    Object convert(Object value);
  }

  private final int[] positions;
  private final ValueConverter[] converters;
  private final int[] partitionPositions;
  private final Set<List<Object>> partitions;

  /**
   * @param positions for each output column, its position in the source's rows
   * @param types the output columns' types
   * @param unsigned for each output column, whether the cube holds it as an unsigned integer
   * @param partitionPositions the positions of the partition columns in the source's rows
   * @param partitions the partition values a row must have, or null for all
   */
  RowDataConversion(int[] positions, List<LogicalType> types, boolean[] unsigned, int[] partitionPositions,
      Set<List<Object>> partitions) {
    this.positions = positions.clone();
    this.converters = new ValueConverter[positions.length];
    for (int i = 0; i < positions.length; i++) {
      converters[i] = converter(types.get(i), unsigned[i]);
    }
    this.partitionPositions = partitionPositions.clone();
    this.partitions = partitions;
  }

  @Override
  public void flatMap(Row row, Collector<RowData> out) {
    if (partitions != null) {
      List<Object> values = new ArrayList<>(partitionPositions.length);
      for (int position : partitionPositions) {
        values.add(row.getField(position));
      }
      if (!partitions.contains(values)) {
        return;
      }
    }
    GenericRowData data = new GenericRowData(row.getKind(), positions.length); // +U and -D of an upsert changelog
    for (int i = 0; i < positions.length; i++) {
      Object value = row.getField(positions[i]);
      data.setField(i, value == null ? null : converters[i].convert(value));
    }
    out.collect(data);
  }

  private static ValueConverter converter(LogicalType type, boolean unsigned) {
    return switch (type.getTypeRoot()) {
      case TINYINT -> value -> ((Long) value).byteValue();
      case SMALLINT -> value -> ((Long) value).shortValue();
      case INTEGER -> value -> ((Long) value).intValue();
      case FLOAT -> value -> ((Double) value).floatValue();
      case CHAR, VARCHAR -> value -> StringData.fromString((String) value);
      case DATE -> value -> (int) ((LocalDate) value).toEpochDay();
      case TIME_WITHOUT_TIME_ZONE -> value -> (int) (((LocalTime) value).toNanoOfDay() / 1_000_000);
      case TIMESTAMP_WITHOUT_TIME_ZONE -> value -> TimestampData.fromLocalDateTime((LocalDateTime) value);
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> value -> TimestampData.fromInstant((Instant) value);
      case DECIMAL -> {
        int precision = ((DecimalType) type).getPrecision();
        int scale = ((DecimalType) type).getScale();
        yield unsigned
            ? value -> DecimalData.fromBigDecimal(new BigDecimal(new BigInteger(Long.toUnsignedString((Long) value))),
                precision, scale)
            : value -> DecimalData.fromBigDecimal((BigDecimal) value, precision, scale);
      }
      default -> value -> value; // BIGINT Long, DOUBLE Double, BOOLEAN Boolean, BINARY/VARBINARY byte[]
    };
  }
}
