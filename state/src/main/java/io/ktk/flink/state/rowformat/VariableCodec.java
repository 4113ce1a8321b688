package io.ktk.flink.state.rowformat;

import static io.ktk.flink.state.rowformat.FixedEncoding.INT_BE;

import org.apache.arrow.vector.types.pojo.Field;

/**
 * The variable-length family for utf8, large_utf8, binary and large_binary: strings are their
 * UTF-8 bytes, so they order by code point. See {@link VariableEncoding} for the byte rules.
 */
final class VariableCodec extends ColumnCodec {
  VariableCodec(Field field, boolean descending, boolean nullsFirst, boolean ordered) {
    super(field, descending, nullsFirst, ordered);
  }

  /** Writes a null (ordered: the null byte; unordered: length -1) and returns its length. */
  int encodeNull(byte[] data, int pos) {
    if (ordered) {
      data[pos] = nullByte;
      return 1;
    }
    INT_BE.set(data, pos, VariableEncoding.UNORDERED_NULL);
    return 4;
  }
}
