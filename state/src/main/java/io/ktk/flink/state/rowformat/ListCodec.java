package io.ktk.flink.state.rowformat;

import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * List, ordered: the elements are encoded as rows of their own, their concatenation is the
 * list's byte string, and that string is written with the variable-length encoding (null and
 * empty lists get the null byte and {@code 0x01}).
 *
 * <p>The elements are encoded ascending with nulls first iff {@code nullsFirst != descending};
 * the variable-length encoding then inverts the whole string for descending columns, which
 * reverses the element order and puts longer lists before their prefixes, while null elements
 * keep the requested place. Element encodings are prefix-free, so comparing concatenations
 * compares element by element; a list that is a prefix of another is smaller thanks to the
 * zero padding and the final block's length byte.
 *
 * <p>Unlike polars-row's text, no element lengths and count follow the elements: with them a list
 * was compared against another list's length bytes, and {@code [null]} sorted after
 * {@code [null, null]} (apache/arrow-rs#5807, fixed there by dropping the suffix as well).
 * Decoding instead parses the self-delimiting element encodings.
 *
 * <p>List, unordered: null is length {@code -1}; otherwise a 4-byte big-endian element count
 * followed by the elements' unordered encodings.
 */
final class ListCodec extends ColumnCodec {
  final ColumnCodec element;

  ListCodec(Field field, boolean descending, boolean nullsFirst, boolean ordered) {
    super(field, descending, nullsFirst, ordered);
    Field child = field.getChildren().get(0);
    this.element = ordered
        ? create(child, false, nullsFirst != descending, true)
        : create(child, false, true, false);
  }
}
