package io.ktk.flink.state.rowformat;

import io.ktk.flink.state.KtkValidationException;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * One column of a row key in one of the encoding families (fixed, variable, struct, list): its
 * field, its sort options and what its family needs to write values ({@link FieldWriter} writes
 * them from Flink rows). Codecs form a tree for nested types; each node knows its sort options.
 */
abstract class ColumnCodec {
  final Field field;
  final boolean descending;
  final boolean nullsFirst;
  final boolean ordered;
  /** First byte of a null value, for the families whose null is one marker byte. */
  final byte nullByte;

  ColumnCodec(Field field, boolean descending, boolean nullsFirst, boolean ordered) {
    this.field = field;
    // the unordered form has one fixed set of options: its bytes only need to be equal or not
    this.descending = ordered && descending;
    this.nullsFirst = !ordered || nullsFirst;
    this.ordered = ordered;
    this.nullByte = FixedEncoding.nullByte(this.nullsFirst);
  }

  static ColumnCodec create(Field field, boolean descending, boolean nullsFirst, boolean ordered) {
    ArrowType type = field.getType();
    return switch (type.getTypeID()) {
      case Bool, Int, FloatingPoint, Date, Time, Timestamp, Decimal, FixedSizeBinary ->
          FixedCodec.create(field, descending, nullsFirst, ordered);
      case Utf8, LargeUtf8, Binary, LargeBinary ->
          new VariableCodec(field, descending, nullsFirst, ordered);
      case Struct -> new StructCodec(field, descending, nullsFirst, ordered);
      case List -> new ListCodec(field, descending, nullsFirst, ordered);
      default -> throw unsupported(field, "type " + type + " is not supported");
    };
  }

  static KtkValidationException unsupported(Field field, String reason) {
    return new KtkValidationException(
        "Cannot build row format for column '" + field.getName() + "': " + reason
            + " (supported: bool, int8-64, uint8-64, float32/64, date, time, timestamp,"
            + " decimal128, fixed_size_binary, binary, large_binary, utf8, large_utf8, struct,"
            + " list)");
  }
}
