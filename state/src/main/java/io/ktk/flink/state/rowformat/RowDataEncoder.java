package io.ktk.flink.state.rowformat;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.rowformat.FieldWriter.Getter;
import java.util.List;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Encodes the key columns of Flink rows, one row at a time, into a reusable {@link RowBuffer}:
 * the sink's path from a record to its partition key. The bytes are those {@link RowConverter}
 * specifies; the tests check them against a second, columnar encoder of the same values as Arrow
 * vectors.
 *
 * <p>Flink types are read as the Arrow types of {@link io.ktk.flink.state.types.FlinkArrowTypes}: TINYINT..BIGINT as
 * int8..int64, FLOAT/DOUBLE as float32/64, BOOLEAN, CHAR/VARCHAR as utf8 (or large_utf8),
 * BINARY/VARBINARY as binary (or large_binary), DATE as date32 days (or date64), TIME as time of
 * any unit, TIMESTAMP(p) as timestamp without zone and TIMESTAMP_LTZ(p) as timestamp with a zone
 * (epoch value in the Arrow unit; a value that would lose precision is rejected), DECIMAL(p, s)
 * as decimal128 of the same scale (the unscaled value), ARRAY as list and ROW as struct. Nothing
 * is allocated per row except where Flink's accessors allocate (BINARY values, non-compact
 * decimals).
 *
 * <p>Not thread-safe; create one per task.
 */
public final class RowDataEncoder {
  private final RowConverter converter;
  private final FieldWriter[] writers;
  private final int[] positions;

  RowDataEncoder(RowConverter converter, List<ColumnCodec> codecs, RowType rowType,
      int[] positions) {
    this.converter = converter;
    requireNonNull(rowType, "rowType is null");
    requireNonNull(positions, "positions is null");
    if (positions.length != codecs.size()) {
      throw new IllegalArgumentException("Cannot bind row key encoder to " + rowType + ": "
          + positions.length + " positions given for " + codecs.size() + " key columns");
    }
    this.positions = positions.clone();
    this.writers = new FieldWriter[codecs.size()];
    for (int k = 0; k < writers.length; k++) {
      int pos = positions[k];
      if (pos < 0 || pos >= rowType.getFieldCount()) {
        throw new IllegalArgumentException("Cannot bind row key encoder to " + rowType
            + ": position " + pos + " is out of range");
      }
      writers[k] = bind(codecs.get(k), rowType.getTypeAt(pos), rowType.getFieldNames().get(pos));
    }
  }

  public RowConverter converter() {
    return converter;
  }

  /** Replaces the content of {@code out} with the key of {@code row}. */
  public void encode(RowData row, RowBuffer out) {
    out.clear();
    for (int k = 0; k < writers.length; k++) {
      writers[k].writeField(row, positions[k], out);
    }
  }

  private static FieldWriter bind(ColumnCodec codec, LogicalType type, String column) {
    ArrowType arrow = codec.field.getType();
    switch (type.getTypeRoot()) {
      case BOOLEAN:
        if (arrow instanceof ArrowType.Bool) {
          return fixed(codec, column, Getter.BOOLEAN, 0, 0);
        }
        break;
      case TINYINT:
        if (isInt(arrow, 8)) {
          return fixed(codec, column, Getter.TINYINT, 0, 0);
        }
        break;
      case SMALLINT:
        if (isInt(arrow, 16)) {
          return fixed(codec, column, Getter.SMALLINT, 0, 0);
        }
        break;
      case INTEGER:
        if (isInt(arrow, 32)) {
          return fixed(codec, column, Getter.INT, 0, 0);
        }
        break;
      case BIGINT:
        if (isInt(arrow, 64)) {
          return fixed(codec, column, Getter.BIGINT, 0, 0);
        }
        break;
      case FLOAT:
        if (isFloat(arrow, FloatingPointPrecision.SINGLE)) {
          return fixed(codec, column, Getter.FLOAT, 0, 0);
        }
        break;
      case DOUBLE:
        if (isFloat(arrow, FloatingPointPrecision.DOUBLE)) {
          return fixed(codec, column, Getter.DOUBLE, 0, 0);
        }
        break;
      case DATE:
        if (arrow instanceof ArrowType.Date) {
          return fixed(codec, column, Getter.DATE, 0, 0);
        }
        break;
      case TIME_WITHOUT_TIME_ZONE:
        if (arrow instanceof ArrowType.Time) {
          return fixed(codec, column, Getter.TIME, 0, 0);
        }
        break;
      case TIMESTAMP_WITHOUT_TIME_ZONE:
        if (arrow instanceof ArrowType.Timestamp t && t.getTimezone() == null) {
          int precision = ((TimestampType) type).getPrecision();
          return fixed(codec, column, Getter.TIMESTAMP, precision, 0);
        }
        break;
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        if (arrow instanceof ArrowType.Timestamp t && t.getTimezone() != null) {
          int precision = ((LocalZonedTimestampType) type).getPrecision();
          return fixed(codec, column, Getter.TIMESTAMP, precision, 0);
        }
        break;
      case DECIMAL:
        DecimalType decimal = (DecimalType) type;
        if (arrow instanceof ArrowType.Decimal d && d.getScale() == decimal.getScale()) {
          return fixed(codec, column, Getter.DECIMAL, decimal.getPrecision(), decimal.getScale());
        }
        break;
      case CHAR:
      case VARCHAR:
        if (arrow instanceof ArrowType.Utf8 || arrow instanceof ArrowType.LargeUtf8) {
          return new FieldWriter.VariableWriter(column, (VariableCodec) codec, true);
        }
        break;
      case BINARY:
      case VARBINARY:
        if (arrow instanceof ArrowType.Binary || arrow instanceof ArrowType.LargeBinary) {
          return new FieldWriter.VariableWriter(column, (VariableCodec) codec, false);
        }
        break;
      case ARRAY:
        if (codec instanceof ListCodec list) {
          FieldWriter element =
              bind(list.element, ((ArrayType) type).getElementType(), column + "[]");
          return new FieldWriter.ListWriter(column, list, element);
        }
        break;
      case ROW:
        RowType row = (RowType) type;
        if (codec instanceof StructCodec struct && struct.children.length == row.getFieldCount()) {
          FieldWriter[] children = new FieldWriter[row.getFieldCount()];
          for (int c = 0; c < children.length; c++) {
            children[c] = bind(
                struct.children[c], row.getTypeAt(c), column + "." + row.getFieldNames().get(c));
          }
          return new FieldWriter.StructWriter(column, struct, children);
        }
        break;
      default:
        throw new KtkValidationException("Cannot encode row key column '" + column + "': Flink type "
            + type + " is not supported in row keys");
    }
    throw new KtkValidationException("Cannot encode row key column '" + column + "': Flink type "
        + type + " does not match the key's Arrow type " + arrow);
  }

  private static FieldWriter fixed(
      ColumnCodec codec, String column, Getter getter, int precision, int scale) {
    return new FieldWriter.FixedWriter(column, (FixedCodec) codec, getter, precision, scale);
  }

  private static boolean isInt(ArrowType type, int bits) {
    return type instanceof ArrowType.Int t && t.getIsSigned() && t.getBitWidth() == bits;
  }

  private static boolean isFloat(ArrowType type, FloatingPointPrecision precision) {
    return type instanceof ArrowType.FloatingPoint f && f.getPrecision() == precision;
  }
}
