package io.ktk.flink.state.rowformat;

import static io.ktk.flink.state.rowformat.FixedEncoding.INT_BE;

import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.ListVector;
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
 * <p>Unlike polars-row's text, no element lengths and count follow the elements: with them a list was
 * compared against another list's length bytes, and {@code [null]} sorted after
 * {@code [null, null]} (apache/arrow-rs#5807, fixed there by dropping the suffix as well).
 * Decoding instead parses the self-delimiting element encodings.
 *
 * <p>List, unordered: null is length {@code -1}; otherwise a 4-byte big-endian element count
 * followed by the elements' unordered encodings.
 */
final class ListCodec extends ColumnCodec {
  final ColumnCodec element;
  private final VariableEncoding.Scratch scratch = new VariableEncoding.Scratch();

  ListCodec(Field field, boolean descending, boolean nullsFirst, boolean ordered) {
    super(field, descending, nullsFirst, ordered);
    Field child = field.getChildren().get(0);
    this.element = ordered
        ? create(child, false, nullsFirst != descending, true)
        : create(child, false, true, false);
  }

  @Override
  Encoder prepare(ValueVector vector, int rowCount) {
    ListVector list = (ListVector) vector;
    ArrowBuf offsets = list.getOffsetBuffer();
    ValueVector values = list.getDataVector();
    int valueCount = rowCount == 0 ? 0 : offsets.getInt((long) rowCount << 2);
    Rows elements = encodeAll(null, new ColumnCodec[] {element}, List.of(values), valueCount);
    boolean mayBeNull = list.getNullCount() > 0;
    return new Encoder() {
      @Override
      public int fixedLength() {
        return -1;
      }

      @Override
      public void addLengths(int[] lengths) {
        for (int i = 0; i < rowCount; i++) {
          if (mayBeNull && list.isNull(i)) {
            lengths[i + 1] += ordered ? 1 : 4;
          } else {
            int first = offsets.getInt((long) i << 2);
            int end = offsets.getInt((long) (i + 1) << 2);
            int bytes = bytes(elements, first, end);
            lengths[i + 1] += ordered
                ? VariableEncoding.orderedLength(bytes, VariableEncoding.BLOCK_SIZE)
                : 4 + bytes;
          }
        }
      }

      @Override
      public void encode(byte[] data, int[] cursors) {
        byte[] elementData = elements.data();
        for (int i = 0; i < rowCount; i++) {
          int pos = cursors[i + 1];
          if (mayBeNull && list.isNull(i)) {
            if (ordered) {
              data[pos] = nullByte;
              cursors[i + 1] = pos + 1;
            } else {
              INT_BE.set(data, pos, VariableEncoding.UNORDERED_NULL);
              cursors[i + 1] = pos + 4;
            }
            continue;
          }
          int first = offsets.getInt((long) i << 2);
          int end = offsets.getInt((long) (i + 1) << 2);
          int bytes = bytes(elements, first, end);
          int from = first == end ? 0 : elements.start(first);
          if (ordered) {
            System.arraycopy(elementData, from, data, pos + 1, bytes);
            cursors[i + 1] = pos + VariableEncoding.encodeInPlace(
                data, pos, bytes, descending, VariableEncoding.BLOCK_SIZE);
          } else {
            INT_BE.set(data, pos, end - first);
            System.arraycopy(elementData, from, data, pos + 4, bytes);
            cursors[i + 1] = pos + 4 + bytes;
          }
        }
      }
    };
  }

  private static int bytes(Rows elements, int first, int end) {
    return first == end ? 0 : elements.end(end - 1) - elements.start(first);
  }

  @Override
  int decode(byte[] data, int pos, ValueVector vector, int index) {
    ListVector list = (ListVector) vector;
    ValueVector values = list.getDataVector();
    if (!ordered) {
      int count = (int) INT_BE.get(data, pos);
      if (count == VariableEncoding.UNORDERED_NULL) {
        list.setNull(index);
        return pos + 4;
      }
      int start = list.startNewValue(index);
      int p = pos + 4;
      for (int k = 0; k < count; k++) {
        p = element.decode(data, p, values, start + k);
      }
      list.endValue(index, count);
      return p;
    }
    if (data[pos] == nullByte) {
      list.setNull(index);
      return pos + 1;
    }
    int next = VariableEncoding.decodeOrdered(
        data, pos, descending, VariableEncoding.BLOCK_SIZE, scratch);
    int start = list.startNewValue(index);
    int count = 0;
    for (int p = 0; p < scratch.length; count++) {
      p = element.decode(scratch.bytes, p, values, start + count);
    }
    list.endValue(index, count);
    return next;
  }

  @Override
  void setNull(ValueVector vector, int index) {
    ((ListVector) vector).setNull(index);
  }
}
