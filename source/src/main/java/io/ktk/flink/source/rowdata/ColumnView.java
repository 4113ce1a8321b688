package io.ktk.flink.source.rowdata;

import io.ktk.flink.state.vector.DoubleVector;
import io.ktk.flink.state.vector.LongType;
import io.ktk.flink.state.vector.LongVector;
import io.ktk.flink.state.vector.TypedVector;
import java.math.BigDecimal;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * One column of a result batch read as Flink's internal data of the column's logical type, row by
 * row: longs and doubles straight from the primitive arrays of the batch's vectors, other values
 * converted from their typed value ({@link InternalValues}) when asked for. A {@link VectorRowData}
 * calls the getter its column's type calls for, as Flink's field getters do.
 */
abstract class ColumnView {
  abstract boolean isNull(int row);

  boolean getBoolean(int row) {
    return (Boolean) internal(row);
  }

  byte getByte(int row) {
    return (Byte) internal(row);
  }

  short getShort(int row) {
    return (Short) internal(row);
  }

  int getInt(int row) {
    return (Integer) internal(row);
  }

  long getLong(int row) {
    return (Long) internal(row);
  }

  float getFloat(int row) {
    return (Float) internal(row);
  }

  double getDouble(int row) {
    return (Double) internal(row);
  }

  StringData getString(int row) {
    return (StringData) internal(row);
  }

  DecimalData getDecimal(int row) {
    return (DecimalData) internal(row);
  }

  TimestampData getTimestamp(int row) {
    return (TimestampData) internal(row);
  }

  byte[] getBinary(int row) {
    return (byte[]) internal(row);
  }

  ArrayData getArray(int row) {
    return (ArrayData) internal(row);
  }

  RowData getRow(int row) {
    return (RowData) internal(row);
  }

  /** The internal value of a row that is not null, by conversion of its typed value. */
  abstract Object internal(int row);

  /** The view of {@code vector} as values of {@code type}. */
  static ColumnView of(TypedVector vector, LogicalType type) {
    if (vector instanceof LongVector longs && LongView.reads(longs.type(), type)) {
      return new LongView(longs, type);
    }
    if (vector instanceof DoubleVector doubles
        && (type.getTypeRoot() == LogicalTypeRoot.DOUBLE || type.getTypeRoot() == LogicalTypeRoot.FLOAT)) {
      return new DoubleView(doubles);
    }
    return new ObjectView(vector, InternalValues.converter(type));
  }

  /** Typed values, converted one by one. */
  private static final class ObjectView extends ColumnView {
    private final TypedVector vector;
    private final InternalValues.Converter converter;

    ObjectView(TypedVector vector, InternalValues.Converter converter) {
      this.vector = vector;
      this.converter = converter;
    }

    @Override
    boolean isNull(int row) {
      return vector.isNull(row);
    }

    @Override
    Object internal(int row) {
      return converter.convert(vector.get(row));
    }
  }

  /** Doubles, also as floats. */
  private static final class DoubleView extends ColumnView {
    private final DoubleVector vector;
    private final double[] values;

    DoubleView(DoubleVector vector) {
      this.vector = vector;
      this.values = vector.values();
    }

    @Override
    boolean isNull(int row) {
      return vector.isNull(row);
    }

    @Override
    double getDouble(int row) {
      return values[row];
    }

    @Override
    float getFloat(int row) {
      return (float) values[row];
    }

    @Override
    Object internal(int row) {
      return values[row];
    }
  }

  /**
   * Longs as the integer types, dates (days), times (milliseconds of the day, from nanoseconds),
   * timestamps and decimals, without a typed value in between.
   */
  private static final class LongView extends ColumnView {
    private static final long[] POWERS_OF_TEN = new long[19];

    static {
      POWERS_OF_TEN[0] = 1;
      for (int i = 1; i < POWERS_OF_TEN.length; i++) {
        POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
      }
    }

    private final LongVector vector;
    private final long[] values;
    private final LongType longType;
    /** What a value is divided by for {@link #getInt}: 1, or nanoseconds per millisecond for a time. */
    private final long intDivisor;
    private final int precision;
    private final int scale;

    LongView(LongVector vector, LogicalType type) {
      this.vector = vector;
      this.values = vector.values();
      this.longType = vector.type();
      this.intDivisor = longType.kind() == LongType.Kind.TIME ? 1_000_000 : 1;
      this.precision = type instanceof DecimalType decimal ? decimal.getPrecision() : 0;
      this.scale = type instanceof DecimalType decimal ? decimal.getScale() : 0;
    }

    /** Whether longs of {@code longType} read as {@code type} without a typed value in between. */
    static boolean reads(LongType longType, LogicalType type) {
      LongType.Kind kind = longType.kind();
      return switch (type.getTypeRoot()) {
        case TINYINT, SMALLINT, INTEGER, BIGINT -> kind == LongType.Kind.INTEGER || kind == LongType.Kind.UNSIGNED_64;
        case DATE -> kind == LongType.Kind.DATE;
        case TIME_WITHOUT_TIME_ZONE -> kind == LongType.Kind.TIME;
        case TIMESTAMP_WITHOUT_TIME_ZONE -> kind == LongType.Kind.TIMESTAMP && !longType.utc();
        case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> kind == LongType.Kind.TIMESTAMP && longType.utc();
        case DECIMAL -> kind == LongType.Kind.DECIMAL || kind == LongType.Kind.UNSIGNED_64;
        default -> false;
      };
    }

    @Override
    boolean isNull(int row) {
      return vector.isNull(row);
    }

    @Override
    byte getByte(int row) {
      return (byte) values[row];
    }

    @Override
    short getShort(int row) {
      return (short) values[row];
    }

    @Override
    int getInt(int row) {
      return (int) (values[row] / intDivisor);
    }

    @Override
    long getLong(int row) {
      return values[row];
    }

    @Override
    TimestampData getTimestamp(int row) {
      long value = values[row];
      long nanosPerUnit = longType.nanosPerUnit();
      if (nanosPerUnit >= 1_000_000) {
        return TimestampData.fromEpochMillis(value * (nanosPerUnit / 1_000_000));
      }
      long unitsPerMilli = 1_000_000 / nanosPerUnit;
      return TimestampData.fromEpochMillis(Math.floorDiv(value, unitsPerMilli),
          (int) (Math.floorMod(value, unitsPerMilli) * nanosPerUnit));
    }

    @Override
    DecimalData getDecimal(int row) {
      long value = values[row];
      if (longType.kind() == LongType.Kind.UNSIGNED_64) {
        return DecimalData.fromBigDecimal(InternalValues.unsigned(value), precision, scale);
      }
      if (longType.scale() == scale && precision < POWERS_OF_TEN.length && Math.abs(value) < POWERS_OF_TEN[precision]
          && value != Long.MIN_VALUE) {
        return DecimalData.fromUnscaledLong(value, precision, scale);
      }
      return DecimalData.fromBigDecimal(BigDecimal.valueOf(value, longType.scale()), precision, scale);
    }

    @Override
    Object internal(int row) {
      throw new IllegalStateException("a column of " + longType + " has no boxed internal value");
    }
  }
}
