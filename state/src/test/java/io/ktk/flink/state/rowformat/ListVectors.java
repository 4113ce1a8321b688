package io.ktk.flink.state.rowformat;

import static io.ktk.flink.state.rowformat.FixedEncoding.INT_BE;

import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.ListVector;

/** {@link ListCodec} over Arrow list vectors: the elements are encoded as rows of their own. */
final class ListVectors {
  private ListVectors() {}

  static VectorRows.Encoder prepare(ListCodec codec, ValueVector vector, int rowCount) {
    ListVector list = (ListVector) vector;
    ArrowBuf offsets = list.getOffsetBuffer();
    ValueVector values = list.getDataVector();
    int valueCount = rowCount == 0 ? 0 : offsets.getInt((long) rowCount << 2);
    Rows elements = VectorRows.encodeAll(null, new ColumnCodec[] {codec.element}, List.of(values), valueCount);
    boolean mayBeNull = list.getNullCount() > 0;
    return new VectorRows.Encoder() {
      @Override
      public int fixedLength() {
        return -1;
      }

      @Override
      public void addLengths(int[] lengths) {
        for (int i = 0; i < rowCount; i++) {
          if (mayBeNull && list.isNull(i)) {
            lengths[i + 1] += codec.ordered ? 1 : 4;
          } else {
            int first = offsets.getInt((long) i << 2);
            int end = offsets.getInt((long) (i + 1) << 2);
            int bytes = bytes(elements, first, end);
            lengths[i + 1] += codec.ordered
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
            if (codec.ordered) {
              data[pos] = codec.nullByte;
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
          if (codec.ordered) {
            System.arraycopy(elementData, from, data, pos + 1, bytes);
            cursors[i + 1] = pos + VariableEncoding.encodeInPlace(
                data, pos, bytes, codec.descending, VariableEncoding.BLOCK_SIZE);
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

  static int decode(ListCodec codec, byte[] data, int pos, ValueVector vector, int index) {
    VariableEncoding.Scratch scratch = new VariableEncoding.Scratch();
    ListVector list = (ListVector) vector;
    ValueVector values = list.getDataVector();
    if (!codec.ordered) {
      int count = (int) INT_BE.get(data, pos);
      if (count == VariableEncoding.UNORDERED_NULL) {
        list.setNull(index);
        return pos + 4;
      }
      int start = list.startNewValue(index);
      int p = pos + 4;
      for (int k = 0; k < count; k++) {
        p = VectorRows.decode(codec.element, data, p, values, start + k);
      }
      list.endValue(index, count);
      return p;
    }
    if (data[pos] == codec.nullByte) {
      list.setNull(index);
      return pos + 1;
    }
    int next = VariableEncoding.decodeOrdered(
        data, pos, codec.descending, VariableEncoding.BLOCK_SIZE, scratch);
    int start = list.startNewValue(index);
    int count = 0;
    for (int p = 0; p < scratch.length; count++) {
      p = VectorRows.decode(codec.element, scratch.bytes, p, values, start + count);
    }
    list.endValue(index, count);
    return next;
  }

  static void setNull(ListCodec codec, ValueVector vector, int index) {
    ((ListVector) vector).setNull(index);
  }
}
