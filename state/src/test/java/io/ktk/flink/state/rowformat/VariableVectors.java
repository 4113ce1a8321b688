package io.ktk.flink.state.rowformat;

import static io.ktk.flink.state.rowformat.FixedEncoding.INT_BE;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** {@link VariableCodec} over Arrow vectors of utf8, large_utf8, binary and large_binary. */
final class VariableVectors {
  private VariableVectors() {}

  /** Whether the codec's vectors have 64-bit offsets (large_utf8, large_binary). */
  private static boolean large(VariableCodec codec) {
    ArrowType.ArrowTypeID id = codec.field.getType().getTypeID();
    return id == ArrowType.ArrowTypeID.LargeUtf8 || id == ArrowType.ArrowTypeID.LargeBinary;
  }

  static VectorRows.Encoder prepare(VariableCodec codec, ValueVector vector, int rowCount) {
    ArrowBuf offsets = large(codec)
        ? ((BaseLargeVariableWidthVector) vector).getOffsetBuffer()
        : ((BaseVariableWidthVector) vector).getOffsetBuffer();
    ArrowBuf values = vector.getDataBuffer();
    boolean mayBeNull = vector.getNullCount() > 0;
    return new VectorRows.Encoder() {
      @Override
      public int fixedLength() {
        return -1;
      }

      @Override
      public void addLengths(int[] lengths) {
        for (int i = 0; i < rowCount; i++) {
          if (mayBeNull && vector.isNull(i)) {
            lengths[i + 1] += codec.ordered ? 1 : 4;
          } else {
            int length = (int) (offset(codec, offsets, i + 1) - offset(codec, offsets, i));
            lengths[i + 1] += codec.ordered
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
            cursors[i + 1] = pos + codec.encodeNull(data, pos);
          } else {
            long start = offset(codec, offsets, i);
            int length = (int) (offset(codec, offsets, i + 1) - start);
            if (codec.ordered) {
              values.getBytes(start, data, pos + 1, length);
              cursors[i + 1] = pos + VariableEncoding.encodeInPlace(
                  data, pos, length, codec.descending, VariableEncoding.BLOCK_SIZE);
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

  private static long offset(VariableCodec codec, ArrowBuf offsets, int i) {
    return large(codec) ? offsets.getLong((long) i << 3) : offsets.getInt((long) i << 2);
  }

  static int decode(VariableCodec codec, byte[] data, int pos, ValueVector vector, int index) {
    VariableEncoding.Scratch scratch = new VariableEncoding.Scratch();
    if (!codec.ordered) {
      int length = (int) INT_BE.get(data, pos);
      if (length == VariableEncoding.UNORDERED_NULL) {
        setNull(codec, vector, index);
      } else {
        set(codec, vector, index, data, pos + 4, length);
      }
      return pos + 4 + Math.max(length, 0);
    }
    if (data[pos] == codec.nullByte) {
      setNull(codec, vector, index);
      return pos + 1;
    }
    int next = VariableEncoding.decodeOrdered(
        data, pos, codec.descending, VariableEncoding.BLOCK_SIZE, scratch);
    set(codec, vector, index, scratch.bytes, 0, scratch.length);
    return next;
  }

  private static void set(VariableCodec codec, ValueVector vector, int index, byte[] bytes, int from, int length) {
    if (large(codec)) {
      ((BaseLargeVariableWidthVector) vector).setSafe(index, bytes, from, length);
    } else {
      ((BaseVariableWidthVector) vector).setSafe(index, bytes, from, length);
    }
  }

  static void setNull(VariableCodec codec, ValueVector vector, int index) {
    if (large(codec)) {
      ((BaseLargeVariableWidthVector) vector).setNull(index);
    } else {
      ((BaseVariableWidthVector) vector).setNull(index);
    }
  }
}
