package io.ktk.flink.state.rowformat;

import static io.ktk.flink.state.rowformat.FixedEncoding.INT_BE;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The variable-length family for utf8, large_utf8, binary and large_binary: strings are their
 * UTF-8 bytes, so they order by code point. See {@link VariableEncoding} for the byte rules.
 */
final class VariableCodec extends ColumnCodec {
  private final boolean large;
  private final VariableEncoding.Scratch scratch = new VariableEncoding.Scratch();

  VariableCodec(Field field, boolean descending, boolean nullsFirst, boolean ordered) {
    super(field, descending, nullsFirst, ordered);
    ArrowType.ArrowTypeID id = field.getType().getTypeID();
    this.large = id == ArrowType.ArrowTypeID.LargeUtf8 || id == ArrowType.ArrowTypeID.LargeBinary;
  }

  @Override
  Encoder prepare(ValueVector vector, int rowCount) {
    ArrowBuf offsets = large
        ? ((BaseLargeVariableWidthVector) vector).getOffsetBuffer()
        : ((BaseVariableWidthVector) vector).getOffsetBuffer();
    ArrowBuf values = vector.getDataBuffer();
    boolean mayBeNull = vector.getNullCount() > 0;
    return new Encoder() {
      @Override
      public int fixedLength() {
        return -1;
      }

      @Override
      public void addLengths(int[] lengths) {
        for (int i = 0; i < rowCount; i++) {
          if (mayBeNull && vector.isNull(i)) {
            lengths[i + 1] += ordered ? 1 : 4;
          } else {
            int length = (int) (offset(offsets, i + 1) - offset(offsets, i));
            lengths[i + 1] += ordered
                ? VariableEncoding.orderedLength(length, VariableEncoding.BLOCK_SIZE)
                : 4 + length;
          }
        }
      }

      @Override
      public void encode(byte[] data, int[] cursors) {
        for (int i = 0; i < rowCount; i++) {
          int pos = cursors[i + 1];
          if (mayBeNull && vector.isNull(i)) {
            cursors[i + 1] = pos + encodeNull(data, pos);
          } else {
            long start = offset(offsets, i);
            int length = (int) (offset(offsets, i + 1) - start);
            if (ordered) {
              values.getBytes(start, data, pos + 1, length);
              cursors[i + 1] = pos + VariableEncoding.encodeInPlace(
                  data, pos, length, descending, VariableEncoding.BLOCK_SIZE);
            } else {
              INT_BE.set(data, pos, length);
              values.getBytes(start, data, pos + 4, length);
              cursors[i + 1] = pos + 4 + length;
            }
          }
        }
      }
    };
  }

  private long offset(ArrowBuf offsets, int i) {
    return large ? offsets.getLong((long) i << 3) : offsets.getInt((long) i << 2);
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

  @Override
  int decode(byte[] data, int pos, ValueVector vector, int index) {
    if (!ordered) {
      int length = (int) INT_BE.get(data, pos);
      if (length == VariableEncoding.UNORDERED_NULL) {
        setNull(vector, index);
      } else {
        set(vector, index, data, pos + 4, length);
      }
      return pos + 4 + Math.max(length, 0);
    }
    if (data[pos] == nullByte) {
      setNull(vector, index);
      return pos + 1;
    }
    int next = VariableEncoding.decodeOrdered(
        data, pos, descending, VariableEncoding.BLOCK_SIZE, scratch);
    set(vector, index, scratch.bytes, 0, scratch.length);
    return next;
  }

  private void set(ValueVector vector, int index, byte[] bytes, int from, int length) {
    if (large) {
      ((BaseLargeVariableWidthVector) vector).setSafe(index, bytes, from, length);
    } else {
      ((BaseVariableWidthVector) vector).setSafe(index, bytes, from, length);
    }
  }

  @Override
  void setNull(ValueVector vector, int index) {
    if (large) {
      ((BaseLargeVariableWidthVector) vector).setNull(index);
    } else {
      ((BaseVariableWidthVector) vector).setNull(index);
    }
  }
}
