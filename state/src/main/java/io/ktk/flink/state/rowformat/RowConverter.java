package io.ktk.flink.state.rowformat;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.table.types.logical.RowType;

/**
 * Converts rows of several columns into byte strings that compare like the rows: the row keys
 * used wherever rows are grouped, joined or sorted by several columns ({@code docs/design.md}, section 4). The
 * format is arrow-rs's {@code arrow-row} as the {@code polars-row} crate documents it, with one repair for
 * lists (below). The normative spec is {@code docs/row-format.md}.
 *
 * <h2>Overview</h2>
 *
 * A row is the concatenation of the encodings of its columns. Every encoding is prefix-free and
 * begins with a marker byte that makes nulls, empty values and present values unambiguous, so no
 * escaping is needed, and two rows compare with one unsigned byte comparison
 * ({@link java.util.Arrays#compareUnsigned(byte[], byte[])}). Below, {@code N} is the column's null
 * byte: {@code 0x00} for nulls first, {@code 0xFF} for nulls last.
 *
 * <h2>Fixed-width: bool, int8-64, uint8-64, float32/64, date, time, timestamp, decimal128,
 * fixed_size_binary</h2>
 *
 * A present value is {@code 0x01} and the value's bytes big-endian; a null is {@code N} and as
 * many zeros. Unsigned integers are written as they are; signed integers (date, time and
 * timestamp are their integers; decimal128 is its 128-bit unscaled integer) get their sign bit
 * flipped:
 *
 * <pre>
 *   uint32 3      01 00 00 00 03        int32 5     01 80 00 00 05
 *   uint32 258    01 00 00 01 02        int32 -5    01 7F FF FF FB
 *   uint32 23423  01 00 00 5B 7F        int32 null  00 00 00 00 00   (nulls first)
 * </pre>
 *
 * Floats are ordered totally: -0.0 becomes 0.0 and every NaN the canonical NaN; negative values
 * have all bits but the sign inverted; the result is written as a signed integer. So
 * {@code -inf < -1 < -0.0 = 0.0 < 1 < +inf < NaN}, all NaNs equal: {@code 1.0f} is
 * {@code 01 BF 80 00 00}, {@code -1.0f} is {@code 01 40 7F FF FF}. bool is one byte 00 or 01;
 * fixed_size_binary is its bytes.
 *
 * <h2>Variable-length: utf8, large_utf8, binary, large_binary</h2>
 *
 * Null is {@code N}; empty is {@code 01}; otherwise {@code 02}, then the bytes in 32-byte blocks,
 * each full block followed by {@code FF}, the last block padded with zeros and followed by its
 * unpadded length. With 4-byte blocks, for brevity:
 *
 * <pre>
 *   "MEEP"            02 'M' 'E' 'E' 'P' 04
 *   "Defenestration"  02 'D' 'e' 'f' 'e' FF 'n' 'e' 's' 't' FF 'r' 'a' 't' 'i' FF 'o' 'n' 00 00 02
 * </pre>
 *
 * Strings are their UTF-8 bytes, so they order by code point.
 *
 * <h2>Struct</h2>
 *
 * Null is {@code N} alone; present is {@code 01} followed by each child's encoding (the children
 * take the struct column's options). {@code (int32 1, struct null, int32 2)} is
 * {@code 01 80 00 00 01 | 00 | 01 80 00 00 02}.
 *
 * <h2>List</h2>
 *
 * Null is {@code N}; empty is {@code 01}; otherwise the element encodings are concatenated and the
 * result is written with the variable-length scheme. With uint8 elements ({@code 1} is
 * {@code 01 01}, {@code null} is {@code 00 00}): {@code [1, 2, 3]} concatenates to
 * {@code 01 01 01 02 01 03} and {@code [1, null]} to {@code 01 01 00 00}. The polars-row text appended the
 * element lengths and count as u32 to that string; that made {@code [null]} sort after
 * {@code [null, null]} (apache/arrow-rs#5807), so they are left out: elements are self-delimiting.
 * Elements are encoded ascending with nulls first iff {@code nullsFirst != descending}; the
 * descending inversion of the whole string then gives descending elements with the requested
 * null placement, and longer lists before their prefixes.
 *
 * <h2>Ordering options</h2>
 *
 * Descending inverts the bytes of present values after the marker (variable-length and list: the
 * marker too, so empty sorts last). Nulls last uses {@code FF} as null byte, which no present
 * value starts with. Nested values follow the options of their top-level column.
 *
 * <h2>Unordered form</h2>
 *
 * {@link #unordered} builds keys only for equality and hashing, shorter for short strings:
 * fixed-width and struct as above (ascending, nulls first); variable-length as a 4-byte
 * big-endian length and the raw bytes, null as length {@code FFFFFFFF}; lists as a 4-byte element
 * count (null {@code FFFFFFFF}) and the elements. Two unordered keys are equal iff the rows are
 * (with -0.0 = 0.0 and all NaNs equal); their byte order means nothing.
 *
 * <h2>Decoding</h2>
 *
 * The encoding can be decoded back to the values exactly, except that -0.0 comes back as 0.0 and
 * every NaN as the canonical NaN ({@code 0x7FC00000} / {@code 0x7FF8000000000000}). No production
 * code needs that; the tests decode (and encode whole Arrow vectors) to check the format.
 *
 * <p>A converter is immutable and thread-safe; each {@link RowDataEncoder} is for one thread.
 */
public final class RowConverter {
  private final List<SortField> fields;
  private final ColumnCodec[] codecs;
  private final boolean ordered;

  private RowConverter(List<SortField> fields, boolean ordered) {
    this.fields = List.copyOf(fields);
    this.ordered = ordered;
    this.codecs = new ColumnCodec[this.fields.size()];
    for (int c = 0; c < codecs.length; c++) {
      SortField f = this.fields.get(c);
      codecs[c] = ColumnCodec.create(f.field(), f.descending(), f.nullsFirst(), ordered);
    }
  }

  /**
   * Keys that order like the columns, with each column's options.
   *
   * @throws io.ktk.flink.state.KtkValidationException if a column's type is not supported
   */
  public static RowConverter ordered(List<SortField> fields) {
    requireNonNull(fields, "fields is null");
    return new RowConverter(fields, true);
  }

  /**
   * Keys for equality and hashing only (see the class comment).
   *
   * @throws io.ktk.flink.state.KtkValidationException if a column's type is not supported
   */
  public static RowConverter unordered(List<Field> fields) {
    requireNonNull(fields, "fields is null");
    List<SortField> sortFields = new ArrayList<>(fields.size());
    for (Field field : fields) {
      sortFields.add(SortField.ascending(field));
    }
    return new RowConverter(sortFields, false);
  }

  public List<SortField> fields() {
    return fields;
  }

  public boolean isOrdered() {
    return ordered;
  }

  /**
   * An encoder of Flink rows of {@code rowType} whose key columns are at {@code positions} (one
   * per field of this converter, in order; none given means positions {@code 0..n-1}).
   *
   * @throws io.ktk.flink.state.KtkValidationException if a Flink type does not match its key field
   */
  public RowDataEncoder rowDataEncoder(RowType rowType, int... positions) {
    int[] actual = positions;
    if (positions.length == 0) {
      actual = new int[codecs.length];
      for (int i = 0; i < actual.length; i++) {
        actual[i] = i;
      }
    }
    return new RowDataEncoder(this, List.of(codecs), rowType, actual);
  }

  /** The codecs of the key columns, in order. */
  ColumnCodec[] codecs() {
    return codecs;
  }
}
