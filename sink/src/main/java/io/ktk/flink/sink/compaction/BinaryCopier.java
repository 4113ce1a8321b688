package io.ktk.flink.sink.compaction;

import io.ktk.flink.state.KtkValidationException;
import java.util.Arrays;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Copies into BINARY and FIXED_LEN_BYTE_ARRAY outputs. With a {@code width}, values become that many bytes:
 * decimals are sign-extended (or their redundant sign bytes dropped) and integer-stored decimals
 * turned into two's complement bytes. Values that need no change are handed on as slices of the
 * page's bytes.
 */
final class BinaryCopier extends FlatCopier {
  private final int width;
  private Binary[] dictionary = new Binary[0];
  /** Plain values: {@code data[starts[k], starts[k] + lengths[k])}. */
  private byte[] data;
  private int[] starts = new int[0];
  private int[] lengths = new int[0];

  BinaryCopier(String source, PrimitiveType input, int width) {
    super(source, input);
    this.width = width;
  }

  @Override
  int[] setDictionary(Dictionary dict, ChunkWriter out) {
    dictionary = new Binary[dict.getMaxId() + 1];
    for (int id = 0; id < dictionary.length; id++) {
      dictionary[id] = switch (input.getPrimitiveTypeName()) {
        case INT32 -> fromLong(dict.decodeToInt(id));
        case INT64 -> fromLong(dict.decodeToLong(id));
        default -> Binary.fromConstantByteArray(resized(dict.decodeToBinary(id).getBytes()));
      };
    }
    return ((BinaryChunkWriter) out).dictionaryIds(dictionary);
  }

  @Override
  void emitDictionary(int[] outputIds, boolean[] keep, int row0, ChunkWriter chunk, IndexCollector index) {
    BinaryChunkWriter out = (BinaryChunkWriter) chunk;
    if (keep == null && page.present == page.count && outputIds != null) {
      out.addIds(outputIds, page.ids, 0, page.count);
      for (int k = 0; index != null && k < page.count; k++) {
        byte[] bytes = dictionary[page.ids[k]].getBytesUnsafe();
        index.addBytes(bytes, 0, bytes.length);
      }
      return;
    }
    int[] levels = page.levels;
    int[] ids = page.ids;
    int k = 0;
    for (int i = 0; i < page.count; i++) {
      boolean present = levels == null || levels[i] != 0;
      if (keep == null || keep[row0 + i]) {
        if (!present) {
          out.addNull();
        } else if (outputIds != null) {
          out.addId(outputIds[ids[k]]);
        } else {
          out.addValue(dictionary[ids[k]]);
        }
        if (present && index != null) {
          byte[] bytes = dictionary[ids[k]].getBytesUnsafe();
          index.addBytes(bytes, 0, bytes.length);
        }
      }
      if (present) {
        k++;
      }
    }
  }

  @Override
  void decodePlain(int count) {
    if (starts.length < count) {
      starts = new int[Math.max(count, starts.length * 2)];
      lengths = new int[starts.length];
    }
    byte[] bytes = page.bytes;
    int pos = page.from;
    PrimitiveTypeName type = input.getPrimitiveTypeName();
    boolean asIs = (type == PrimitiveTypeName.BINARY && width < 0)
        || (type == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY && input.getTypeLength() == width);
    if (asIs) {
      data = bytes;
      int fixedLength = type == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY ? input.getTypeLength() : -1;
      for (int k = 0; k < count; k++) {
        int length = fixedLength >= 0 ? fixedLength : (int) INTS.get(bytes, pos);
        if (fixedLength < 0) {
          pos += 4;
        }
        starts[k] = pos;
        lengths[k] = length;
        pos += length;
      }
      return;
    }
    // converted values go into an array of their own, each of the output's width
    data = new byte[count * width];
    for (int k = 0; k < count; k++) {
      byte[] value;
      switch (type) {
        case BINARY -> {
          int length = (int) INTS.get(bytes, pos);
          value = resized(Arrays.copyOfRange(bytes, pos + 4, pos + 4 + length));
          pos += 4 + length;
        }
        case FIXED_LEN_BYTE_ARRAY -> {
          int length = input.getTypeLength();
          value = resized(Arrays.copyOfRange(bytes, pos, pos + length));
          pos += length;
        }
        case INT32 -> {
          value = fromLong((int) INTS.get(bytes, pos)).getBytesUnsafe();
          pos += 4;
        }
        case INT64 -> {
          value = fromLong((long) LONGS.get(bytes, pos)).getBytesUnsafe();
          pos += 8;
        }
        default -> throw new IllegalStateException("Cannot copy " + input + " as bytes");
      }
      System.arraycopy(value, 0, data, k * width, width);
      starts[k] = k * width;
      lengths[k] = width;
    }
  }

  /** The value in the output's width (unchanged without one): two's complement, big-endian. */
  private byte[] resized(byte[] in) {
    if (width < 0 || in.length == width) {
      return in;
    }
    byte[] out = new byte[width];
    int length = in.length;
    byte sign = length > 0 && in[0] < 0 ? (byte) -1 : 0;
    if (length <= width) {
      Arrays.fill(out, 0, width - length, sign);
      System.arraycopy(in, 0, out, width - length, length);
      return out;
    }
    int dropped = length - width;
    boolean fits = (in[dropped] < 0) == (sign < 0);
    for (int i = 0; i < dropped && fits; i++) {
      fits = in[i] == sign;
    }
    if (!fits) {
      throw new KtkValidationException("Cannot compact " + source + ": column '" + column + "' holds a decimal "
          + "of " + length + " bytes that does not fit the " + width + " bytes of the dataset's decimal type");
    }
    System.arraycopy(in, dropped, out, 0, width);
    return out;
  }

  private Binary fromLong(long unscaled) {
    byte[] out = new byte[width];
    long v = unscaled;
    for (int i = width - 1; i >= 0; i--) {
      out[i] = (byte) v;
      v >>= 8;
    }
    if (width < 8 && v != 0 && v != -1) {
      throw new KtkValidationException("Cannot compact " + source + ": column '" + column + "' holds the decimal "
          + "with unscaled value " + unscaled + ", which does not fit the " + width + " bytes of the dataset's "
          + "decimal type");
    }
    return Binary.fromConstantByteArray(out);
  }

  @Override
  void emitPlain(boolean[] keep, int row0, ChunkWriter chunk, IndexCollector index) {
    BinaryChunkWriter out = (BinaryChunkWriter) chunk;
    int[] levels = page.levels;
    int k = 0;
    for (int i = 0; i < page.count; i++) {
      boolean present = levels == null || levels[i] != 0;
      if (keep == null || keep[row0 + i]) {
        if (present) {
          out.addValue(data, starts[k], lengths[k]);
          if (index != null) {
            index.addBytes(data, starts[k], lengths[k]);
          }
        } else {
          out.addNull();
        }
      }
      if (present) {
        k++;
      }
    }
  }
}
