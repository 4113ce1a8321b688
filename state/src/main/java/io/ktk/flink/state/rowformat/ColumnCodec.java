package io.ktk.flink.state.rowformat;

import io.ktk.flink.state.KtkValidationException;
import java.util.List;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Encodes and decodes one column of Arrow values, in one of the encoding families (fixed,
 * variable, struct, list). Codecs form a tree for nested types; each node knows its sort options.
 *
 * <p>Batch encoding runs column by column in two passes, as arrow-rs does: first every column adds
 * its per-row lengths, then the buffer is allocated once and every column writes its bytes at each
 * row's cursor. Decoding is value by value from a cursor, into vectors that grow as needed.
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

  /** Prepares the encoding of a vector of this codec's type (checked by the caller). */
  abstract Encoder prepare(ValueVector vector, int rowCount);

  /**
   * Decodes the value at {@code pos} into {@code vector[index]}, growing the vector as needed.
   *
   * @return the position after the value
   */
  abstract int decode(byte[] data, int pos, ValueVector vector, int index);

  /** Sets {@code vector[index]} to null, growing the vector as needed. */
  abstract void setNull(ValueVector vector, int index);

  /** One column's part of a batch encoding. */
  interface Encoder {
    /** The encoded length of every row, or -1 if it varies (then {@link #addLengths} is used). */
    int fixedLength();

    /** Adds the encoded length of row {@code i} to {@code lengths[i + 1]}. */
    void addLengths(int[] lengths);

    /** Writes row {@code i} at {@code cursors[i + 1]} and advances that cursor past it. */
    void encode(byte[] data, int[] cursors);
  }

  /** Encodes the first {@code rowCount} values of each vector into one buffer. */
  static Rows encodeAll(
      RowConverter converter, ColumnCodec[] codecs, List<? extends ValueVector> vectors,
      int rowCount) {
    Encoder[] encoders = new Encoder[codecs.length];
    int[] offsets = new int[rowCount + 1];
    long fixed = 0;
    for (int c = 0; c < codecs.length; c++) {
      encoders[c] = codecs[c].prepare(vectors.get(c), rowCount);
      int length = encoders[c].fixedLength();
      if (length >= 0) {
        fixed += length;
      } else {
        encoders[c].addLengths(offsets);
      }
    }
    // turn lengths into start offsets, shifted by one: cursors[i + 1] is where row i starts
    long total = 0;
    for (int i = 0; i < rowCount; i++) {
      long length = fixed + offsets[i + 1];
      offsets[i + 1] = (int) total;
      total += length;
      if (total > Integer.MAX_VALUE - 8) {
        throw new IllegalArgumentException(
            "Cannot encode rows: the first " + (i + 1) + " of " + rowCount + " rows already take "
                + total + " bytes, more than one buffer holds; encode smaller batches");
      }
    }
    byte[] data = new byte[(int) total];
    for (Encoder encoder : encoders) {
      encoder.encode(data, offsets);
    }
    return new Rows(converter, data, offsets, rowCount);
  }

  /** Whether two fields have the same types, recursively; names and nullability do not matter. */
  static boolean sameTypes(Field a, Field b) {
    if (!a.getType().equals(b.getType()) || a.getChildren().size() != b.getChildren().size()) {
      return false;
    }
    for (int i = 0; i < a.getChildren().size(); i++) {
      if (!sameTypes(a.getChildren().get(i), b.getChildren().get(i))) {
        return false;
      }
    }
    return true;
  }
}
