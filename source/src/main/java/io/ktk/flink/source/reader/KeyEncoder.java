package io.ktk.flink.source.reader;

import io.ktk.flink.state.ValidationException;
import io.ktk.flink.state.rowformat.RowBuffer;
import io.ktk.flink.state.rowformat.RowConverter;
import io.ktk.flink.state.rowformat.RowDataEncoder;
import io.ktk.flink.state.rowformat.SortField;
import io.ktk.flink.state.types.ArrowTypeNames;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Encodes the key columns of rows of typed values (the project's value convention) into ordered row
 * keys ({@link RowConverter}): byte strings that are equal iff the keys are, and compare like the
 * values do as the indices order them. Rows of a dataset are grouped by them, datasets are joined
 * by them, and the seed's rows are sorted by them.
 *
 * <p>Each key column becomes one or two key fields, always in the same way for the same column
 * type, so keys of different datasets compare: signed integers int64; unsigned integers int64 with
 * the sign bit flipped (which orders them unsigned); floats float64 (NaN above +inf, -0.0 = 0.0);
 * bool; strings utf8 (code point order); binary; dates int64 days; timestamps two int64, epoch
 * seconds and nanoseconds; times int64 nanoseconds of the day; decimals decimal128 of the column's
 * precision and scale. Values go through a reused Flink row into a {@link RowDataEncoder}.
 *
 * <p>Not thread-safe.
 */
final class KeyEncoder {
  private enum Kind { LONG, UNSIGNED, DOUBLE, BOOL, STRING, BYTES, DATE, TIMESTAMP, TIME, DECIMAL }

  private final Kind[] kinds;
  private final int[] scales;
  private final int[] precisions;
  private final GenericRowData row;
  private final RowDataEncoder encoder;

  KeyEncoder(List<Field> columns) {
    kinds = new Kind[columns.size()];
    scales = new int[columns.size()];
    precisions = new int[columns.size()];
    List<SortField> fields = new ArrayList<>();
    List<LogicalType> types = new ArrayList<>();
    for (int c = 0; c < columns.size(); c++) {
      Field column = columns.get(c);
      ArrowType type = column.getType();
      switch (type.getTypeID()) {
        case Int -> {
          kinds[c] = ((ArrowType.Int) type).getIsSigned() ? Kind.LONG : Kind.UNSIGNED;
          add(fields, types, column, new ArrowType.Int(64, true), new BigIntType());
        }
        case FloatingPoint -> {
          kinds[c] = Kind.DOUBLE;
          add(fields, types, column, new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), new DoubleType());
        }
        case Bool -> {
          kinds[c] = Kind.BOOL;
          add(fields, types, column, ArrowType.Bool.INSTANCE, new BooleanType());
        }
        case Utf8, LargeUtf8 -> {
          kinds[c] = Kind.STRING;
          add(fields, types, column, ArrowType.Utf8.INSTANCE, new VarCharType(VarCharType.MAX_LENGTH));
        }
        case Binary, LargeBinary, FixedSizeBinary -> {
          kinds[c] = Kind.BYTES;
          add(fields, types, column, ArrowType.Binary.INSTANCE, new VarBinaryType(VarBinaryType.MAX_LENGTH));
        }
        case Date -> {
          kinds[c] = Kind.DATE;
          add(fields, types, column, new ArrowType.Int(64, true), new BigIntType());
        }
        case Timestamp -> {
          kinds[c] = Kind.TIMESTAMP;
          add(fields, types, column, new ArrowType.Int(64, true), new BigIntType());
          add(fields, types, column, new ArrowType.Int(64, true), new BigIntType());
        }
        case Time -> {
          kinds[c] = Kind.TIME;
          add(fields, types, column, new ArrowType.Int(64, true), new BigIntType());
        }
        case Decimal -> {
          ArrowType.Decimal decimal = (ArrowType.Decimal) type;
          kinds[c] = Kind.DECIMAL;
          precisions[c] = decimal.getPrecision();
          scales[c] = decimal.getScale();
          add(fields, types, column, new ArrowType.Decimal(decimal.getPrecision(), decimal.getScale(), 128),
              new DecimalType(decimal.getPrecision(), decimal.getScale()));
        }
        default -> throw new ValidationException("Cannot use column '" + column.getName() + "' of type "
            + ArrowTypeNames.name(column) + " as a cell key: only primitive types identify cells");
      }
    }
    row = new GenericRowData(types.size());
    encoder = RowConverter.ordered(fields).rowDataEncoder(RowType.of(types.toArray(new LogicalType[0])));
  }

  private static void add(List<SortField> fields, List<LogicalType> types, Field column, ArrowType keyType,
      LogicalType flinkType) {
    fields.add(SortField.ascending(new Field(column.getName(), FieldType.nullable(keyType), null)));
    types.add(flinkType);
  }

  /** Encodes the key columns, found at {@code positions} of {@code values}, into {@code out}. */
  void encode(Object[] values, int[] positions, RowBuffer out) {
    int f = 0;
    for (int c = 0; c < kinds.length; c++) {
      Object value = values[positions[c]];
      if (value == null) {
        row.setField(f++, null);
        if (kinds[c] == Kind.TIMESTAMP) {
          row.setField(f++, null);
        }
        continue;
      }
      switch (kinds[c]) {
        case LONG, DOUBLE, BOOL -> row.setField(f++, value);
        case UNSIGNED -> row.setField(f++, (Long) value ^ Long.MIN_VALUE);
        case STRING -> row.setField(f++, StringData.fromString((String) value));
        case BYTES -> row.setField(f++, value);
        case DATE -> row.setField(f++, ((LocalDate) value).toEpochDay());
        case TIMESTAMP -> {
          long seconds;
          long nanos;
          if (value instanceof Instant instant) {
            seconds = instant.getEpochSecond();
            nanos = instant.getNano();
          } else {
            LocalDateTime timestamp = (LocalDateTime) value;
            seconds = timestamp.toEpochSecond(ZoneOffset.UTC);
            nanos = timestamp.getNano();
          }
          row.setField(f++, seconds);
          row.setField(f++, nanos);
        }
        case TIME -> row.setField(f++, ((LocalTime) value).toNanoOfDay());
        case DECIMAL -> row.setField(f++, DecimalData.fromBigDecimal(
            ((BigDecimal) value).setScale(scales[c], RoundingMode.UNNECESSARY), precisions[c], scales[c]));
        default -> throw new IllegalStateException("Unexpected key kind " + kinds[c]);
      }
    }
    encoder.encode(row, out);
  }
}
