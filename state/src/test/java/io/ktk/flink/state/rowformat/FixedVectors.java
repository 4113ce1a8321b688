package io.ktk.flink.state.rowformat;

import static io.ktk.flink.state.rowformat.FixedEncoding.INT_BE;
import static io.ktk.flink.state.rowformat.FixedEncoding.LONG_BE;
import static io.ktk.flink.state.rowformat.FixedEncoding.VALID;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.ValueVector;

/**
 * {@link FixedCodec} over Arrow vectors: Arrow stores these values little-endian in a data buffer
 * of {@code width} bytes per slot (bool: one bit), which is read and written directly, so one
 * encoder serves every vector class of the family.
 */
final class FixedVectors {
  private FixedVectors() {}

  static VectorRows.Encoder prepare(FixedCodec codec, ValueVector vector, int rowCount) {
    BaseFixedWidthVector v = (BaseFixedWidthVector) vector;
    return new VectorRows.Encoder() {
      @Override
      public int fixedLength() {
        return 1 + codec.width;
      }

      @Override
      public void addLengths(int[] lengths) {}

      @Override
      public void encode(byte[] data, int[] cursors) {
        encodeColumn(codec, v, rowCount, data, cursors);
      }
    };
  }

  // The output array is new and zeroed, so a null only writes its marker. One loop per kind and
  // width keeps the per-value work free of dispatch.
  private static void encodeColumn(FixedCodec codec, BaseFixedWidthVector v, int n, byte[] data, int[] cursors) {
    ArrowBuf buf = v.getDataBuffer();
    boolean mayBeNull = v.getNullCount() > 0;
    int step = 1 + codec.width;
    long mask = codec.xorMask;
    switch (codec.kind) {
      case INT -> {
        if (codec.width == 8) {
          for (int i = 0; i < n; i++) {
            int pos = cursors[i + 1];
            if (mayBeNull && v.isNull(i)) {
              data[pos] = codec.nullByte;
            } else {
              data[pos] = VALID;
              LONG_BE.set(data, pos + 1, buf.getLong((long) i << 3) ^ mask);
            }
            cursors[i + 1] = pos + step;
          }
        } else if (codec.width == 4) {
          for (int i = 0; i < n; i++) {
            int pos = cursors[i + 1];
            if (mayBeNull && v.isNull(i)) {
              data[pos] = codec.nullByte;
            } else {
              data[pos] = VALID;
              INT_BE.set(data, pos + 1, buf.getInt((long) i << 2) ^ (int) mask);
            }
            cursors[i + 1] = pos + step;
          }
        } else {
          for (int i = 0; i < n; i++) {
            int pos = cursors[i + 1];
            if (mayBeNull && v.isNull(i)) {
              data[pos] = codec.nullByte;
            } else {
              data[pos] = VALID;
              long raw = codec.width == 2 ? buf.getShort((long) i << 1) : buf.getByte(i);
              FixedEncoding.putBits(data, pos + 1, raw ^ mask, codec.width);
            }
            cursors[i + 1] = pos + step;
          }
        }
      }
      case FLOAT32 -> {
        for (int i = 0; i < n; i++) {
          int pos = cursors[i + 1];
          if (mayBeNull && v.isNull(i)) {
            data[pos] = codec.nullByte;
          } else {
            data[pos] = VALID;
            int bits = FixedEncoding.orderedFloatBits(buf.getFloat((long) i << 2));
            INT_BE.set(data, pos + 1, bits ^ (int) mask);
          }
          cursors[i + 1] = pos + step;
        }
      }
      case FLOAT64 -> {
        for (int i = 0; i < n; i++) {
          int pos = cursors[i + 1];
          if (mayBeNull && v.isNull(i)) {
            data[pos] = codec.nullByte;
          } else {
            data[pos] = VALID;
            long bits = FixedEncoding.orderedDoubleBits(buf.getDouble((long) i << 3));
            LONG_BE.set(data, pos + 1, bits ^ mask);
          }
          cursors[i + 1] = pos + step;
        }
      }
      case BOOL -> {
        for (int i = 0; i < n; i++) {
          int pos = cursors[i + 1];
          if (mayBeNull && v.isNull(i)) {
            data[pos] = codec.nullByte;
          } else {
            data[pos] = VALID;
            data[pos + 1] = (byte) (BitVectorHelper.get(buf, i) ^ mask);
          }
          cursors[i + 1] = pos + step;
        }
      }
      case DECIMAL128 -> {
        for (int i = 0; i < n; i++) {
          int pos = cursors[i + 1];
          if (mayBeNull && v.isNull(i)) {
            data[pos] = codec.nullByte;
          } else {
            data[pos] = VALID;
            codec.putDecimal(data, pos + 1, buf.getLong((long) i << 4), buf.getLong(((long) i << 4) + 8));
          }
          cursors[i + 1] = pos + step;
        }
      }
      case BYTES -> {
        for (int i = 0; i < n; i++) {
          int pos = cursors[i + 1];
          if (mayBeNull && v.isNull(i)) {
            data[pos] = codec.nullByte;
          } else {
            data[pos] = VALID;
            buf.getBytes((long) i * codec.width, data, pos + 1, codec.width);
            if (codec.descending) {
              FixedEncoding.invert(data, pos + 1, codec.width);
            }
          }
          cursors[i + 1] = pos + step;
        }
      }
      default -> throw new IllegalStateException("Unexpected codec.kind " + codec.kind);
    }
  }

  static int decode(FixedCodec codec, byte[] data, int pos, ValueVector vector, int index) {
    if (data[pos] != VALID) {
      if (data[pos] != codec.nullByte) {
        throw new IllegalArgumentException(
            "Cannot decode row: byte " + (data[pos] & 0xFF) + " at " + pos + " is not a marker"
                + " of column '" + codec.field.getName() + "'");
      }
      setNull(codec, vector, index);
      return pos + 1 + codec.width;
    }
    int p = pos + 1;
    if (codec.kind == FixedCodec.Kind.BOOL) {
      ((BitVector) vector).setSafe(index, (int) ((data[p] ^ codec.xorMask) & 1));
      return p + 1;
    }
    BaseFixedWidthVector v = (BaseFixedWidthVector) vector;
    while (index >= v.getValueCapacity()) {
      v.reAlloc();
    }
    ArrowBuf buf = v.getDataBuffer();
    long slot = (long) index * codec.width;
    switch (codec.kind) {
      case INT -> {
        long raw = FixedEncoding.getBits(data, p, codec.width) ^ codec.xorMask;
        switch (codec.width) {
          case 8 -> buf.setLong(slot, raw);
          case 4 -> buf.setInt(slot, (int) raw);
          case 2 -> buf.setShort(slot, (short) raw);
          default -> buf.setByte(slot, (byte) raw);
        }
      }
      case FLOAT32 -> buf.setFloat(slot,
          FixedEncoding.floatFromOrderedBits((int) INT_BE.get(data, p) ^ (int) codec.xorMask));
      case FLOAT64 -> buf.setDouble(slot,
          FixedEncoding.doubleFromOrderedBits((long) LONG_BE.get(data, p) ^ codec.xorMask));
      case DECIMAL128 -> {
        long invert = codec.descending ? -1L : 0L;
        buf.setLong(slot + 8, (long) LONG_BE.get(data, p) ^ codec.xorMask);
        buf.setLong(slot, (long) LONG_BE.get(data, p + 8) ^ invert);
      }
      case BYTES -> {
        if (codec.descending) {
          for (int k = 0; k < codec.width; k++) {
            buf.setByte(slot + k, ~data[p + k]);
          }
        } else {
          buf.setBytes(slot, data, p, codec.width);
        }
      }
      default -> throw new IllegalStateException("Unexpected codec.kind " + codec.kind);
    }
    BitVectorHelper.setBit(v.getValidityBuffer(), index);
    return p + codec.width;
  }

  static void setNull(FixedCodec codec, ValueVector vector, int index) {
    ((BaseFixedWidthVector) vector).setNull(index);
  }
}
