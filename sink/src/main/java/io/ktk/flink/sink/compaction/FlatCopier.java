package io.ktk.flink.sink.compaction;

import io.ktk.flink.state.ValidationException;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.StringLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Copies the values of a flat input column chunk (a top-level primitive) into the writer of a flat
 * output column, page by page: levels and dictionary ids are decoded in bulk ({@link FlatPage}),
 * plain values read straight from the page bytes, converted to the output's physical type, and
 * written row by row, skipping the rows the caller drops. No value is boxed.
 *
 * <p>The conversions are the ones between types Kartothek normalizes to each other: integers of
 * fewer bits (signed or unsigned) to 64 bits, {@code float} to {@code double}, timestamps of
 * another unit to the output's (exactly: a value finer than the output's unit fails), decimals of
 * another width or stored as integers to the output's width, and identical types. {@link #of}
 * returns null for other pairs, which are copied as typed values instead.
 */
abstract class FlatCopier {
  static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  /** "dataset 'x', file 'p=1/abc'": where values come from, for messages. */
  final String source;
  final String column;
  final PrimitiveType input;
  final FlatPage page = new FlatPage();

  FlatCopier(String source, PrimitiveType input) {
    this.source = source;
    this.column = input.getName();
    this.input = input;
  }

  /** A copier from {@code input} to {@code output}, or null when this class does not convert between them. */
  static FlatCopier of(String source, PrimitiveType input, PrimitiveType output) {
    LogicalTypeAnnotation in = input.getLogicalTypeAnnotation();
    LogicalTypeAnnotation out = output.getLogicalTypeAnnotation();
    PrimitiveTypeName inType = input.getPrimitiveTypeName();
    switch (output.getPrimitiveTypeName()) {
      case INT64:
        return longs(source, input, in, out, inType);
      case INT32:
        return inType == PrimitiveTypeName.INT32 && sameKind(in, out) && !(out instanceof DecimalLogicalTypeAnnotation)
            ? new Longs(source, input, Longs.SAME, 1) : null;
      case DOUBLE:
        return inType == PrimitiveTypeName.DOUBLE || inType == PrimitiveTypeName.FLOAT ? new Doubles(source, input)
            : null;
      case BOOLEAN:
        return inType == PrimitiveTypeName.BOOLEAN ? new Booleans(source, input) : null;
      case BINARY:
        boolean textIn = in instanceof StringLogicalTypeAnnotation || in instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation;
        boolean textOut = out instanceof StringLogicalTypeAnnotation;
        return inType == PrimitiveTypeName.BINARY && (textOut ? textIn : in == null && out == null)
            ? new Binaries(source, input, -1) : null;
      case FIXED_LEN_BYTE_ARRAY:
        int width = output.getTypeLength();
        if (out instanceof DecimalLogicalTypeAnnotation decimalOut) {
          boolean sameScale = in instanceof DecimalLogicalTypeAnnotation decimalIn
              && decimalIn.getScale() == decimalOut.getScale();
          return sameScale && (inType == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY || inType == PrimitiveTypeName.BINARY
              || inType == PrimitiveTypeName.INT32 || inType == PrimitiveTypeName.INT64)
              ? new Binaries(source, input, width) : null;
        }
        return out == null && in == null && inType == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
            && input.getTypeLength() == width ? new Binaries(source, input, width) : null;
      default:
        return null;
    }
  }

  private static FlatCopier longs(String source, PrimitiveType input, LogicalTypeAnnotation in,
      LogicalTypeAnnotation out, PrimitiveTypeName inType) {
    if (out == null || out instanceof IntLogicalTypeAnnotation) {
      boolean unsignedOut = out instanceof IntLogicalTypeAnnotation o && !o.isSigned();
      boolean integerIn = in == null || in instanceof IntLogicalTypeAnnotation;
      boolean unsignedIn = in instanceof IntLogicalTypeAnnotation i && !i.isSigned();
      if (!integerIn || unsignedIn != unsignedOut) {
        return null;
      }
      if (inType == PrimitiveTypeName.INT64) {
        return new Longs(source, input, Longs.SAME, 1);
      }
      return inType == PrimitiveTypeName.INT32
          ? new Longs(source, input, unsignedIn ? Longs.UNSIGNED_INT : Longs.SIGNED_INT, 1) : null;
    }
    if (out instanceof TimestampLogicalTypeAnnotation timestampOut
        && in instanceof TimestampLogicalTypeAnnotation timestampIn
        && inType == PrimitiveTypeName.INT64
        && timestampIn.isAdjustedToUTC() == timestampOut.isAdjustedToUTC()) {
      long inNanos = nanosPerUnit(timestampIn.getUnit());
      long outNanos = nanosPerUnit(timestampOut.getUnit());
      if (inNanos == outNanos) {
        return new Longs(source, input, Longs.SAME, 1);
      }
      return inNanos > outNanos ? new Longs(source, input, Longs.MULTIPLY, inNanos / outNanos)
          : new Longs(source, input, Longs.DIVIDE_EXACTLY, outNanos / inNanos);
    }
    return null;
  }

  private static boolean sameKind(LogicalTypeAnnotation in, LogicalTypeAnnotation out) {
    return in == null ? out == null : out != null && in.getClass() == out.getClass() && in.equals(out);
  }

  private static long nanosPerUnit(LogicalTypeAnnotation.TimeUnit unit) {
    return switch (unit) {
      case MILLIS -> 1_000_000L;
      case MICROS -> 1_000L;
      case NANOS -> 1L;
    };
  }

  /**
   * Writes the rows of one input column chunk to {@code out}.
   *
   * @param descriptor the input column
   * @param keep per row of the chunk whether it is written; null writes every row
   * @param index gathers the written values, or null
   */
  final void copy(ColumnDescriptor descriptor, DictionaryPage dictionaryPage, List<DataPage> pages, boolean[] keep,
      ChunkWriter out, IndexCollector index) throws IOException {
    int[] outputIds = null;
    if (dictionaryPage != null) {
      outputIds = setDictionary(dictionaryPage.getEncoding().initDictionary(descriptor, dictionaryPage), out);
    }
    int row = 0;
    for (DataPage data : pages) {
      page.load(descriptor, data);
      if (page.dictionary) {
        emitDictionary(outputIds, keep, row, out, index);
      } else {
        decodePlain(page.present);
        emitPlain(keep, row, out, index);
      }
      row += page.count;
    }
  }

  /**
   * Takes the values of a dictionary page, converted; returns the output dictionary ids of its
   * entries, or null when the output is not dictionary encoded.
   */
  abstract int[] setDictionary(Dictionary dictionary, ChunkWriter out);

  /**
   * Writes the page's rows that {@code keep} keeps from its dictionary ids: mapped to the output's
   * ids ({@code outputIds}), or as values when those are null.
   */
  abstract void emitDictionary(int[] outputIds, boolean[] keep, int row0, ChunkWriter out, IndexCollector index);

  /** Decodes {@code count} plain values from the page's bytes into the value slots, converted. */
  abstract void decodePlain(int count);

  /** Writes the page's rows that {@code keep} keeps from its value slots. */
  abstract void emitPlain(boolean[] keep, int row0, ChunkWriter out, IndexCollector index);

  static long[] grow(long[] array, int count) {
    return array.length >= count ? array : new long[Math.max(count, array.length * 2)];
  }

  /** INT64 and INT32 outputs: integers, unsigned integers, dates, timestamps (of another unit too). */
  static final class Longs extends FlatCopier {
    static final int SAME = 0;
    static final int SIGNED_INT = 1;
    static final int UNSIGNED_INT = 2;
    static final int MULTIPLY = 3;
    static final int DIVIDE_EXACTLY = 4;
    private final int conversion;
    private final long factor;
    private long[] dictionary = new long[0];
    private long[] values = new long[0];

    Longs(String source, PrimitiveType input, int conversion, long factor) {
      super(source, input);
      this.conversion = conversion;
      this.factor = factor;
    }

    @Override
    int[] setDictionary(Dictionary dict, ChunkWriter out) {
      dictionary = new long[dict.getMaxId() + 1];
      for (int id = 0; id < dictionary.length; id++) {
        dictionary[id] = convert(input.getPrimitiveTypeName() == PrimitiveTypeName.INT32
            ? dict.decodeToInt(id) : dict.decodeToLong(id));
      }
      return ((LongChunkWriter) out).dictionaryIds(dictionary);
    }

    @Override
    void emitDictionary(int[] outputIds, boolean[] keep, int row0, ChunkWriter chunk, IndexCollector index) {
      LongChunkWriter out = (LongChunkWriter) chunk;
      if (keep == null && page.present == page.count && outputIds != null) {
        out.addIds(outputIds, page.ids, 0, page.count);
        for (int k = 0; index != null && k < page.count; k++) {
          index.addLong(dictionary[page.ids[k]]);
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
            index.addLong(dictionary[ids[k]]);
          }
        }
        if (present) {
          k++;
        }
      }
    }

    @Override
    void decodePlain(int count) {
      values = grow(values, count);
      byte[] bytes = page.bytes;
      int pos = page.from;
      if (input.getPrimitiveTypeName() == PrimitiveTypeName.INT64) {
        for (int k = 0; k < count; k++, pos += 8) {
          values[k] = (long) LONGS.get(bytes, pos);
        }
      } else {
        for (int k = 0; k < count; k++, pos += 4) {
          values[k] = (int) INTS.get(bytes, pos);
        }
      }
      if (conversion != SAME && conversion != SIGNED_INT) {
        for (int k = 0; k < count; k++) {
          values[k] = convert(values[k]);
        }
      }
    }

    private long convert(long value) {
      switch (conversion) {
        case SAME:
        case SIGNED_INT:
          return value;
        case UNSIGNED_INT:
          return value & 0xFFFF_FFFFL;
        case MULTIPLY:
          try {
            return Math.multiplyExact(value, factor);
          } catch (ArithmeticException e) {
            throw new ValidationException("Cannot compact " + source + ": column '" + column + "' holds the "
                + "timestamp " + value + " (" + input.getLogicalTypeAnnotation() + "), which is outside the range "
                + "of the dataset's timestamp type");
          }
        default:
          if (value % factor != 0) {
            throw new ValidationException("Cannot compact " + source + ": column '" + column + "' holds the "
                + "timestamp " + value + " (" + input.getLogicalTypeAnnotation() + "), finer than the dataset's "
                + "timestamp unit; Kartothek stores timestamps in microseconds and this value would lose precision");
          }
          return value / factor;
      }
    }

    @Override
    void emitPlain(boolean[] keep, int row0, ChunkWriter chunk, IndexCollector index) {
      LongChunkWriter out = (LongChunkWriter) chunk;
      if (keep == null && page.present == page.count) {
        out.addValues(values, 0, page.count);
        for (int k = 0; index != null && k < page.count; k++) {
          index.addLong(values[k]);
        }
        return;
      }
      int[] levels = page.levels;
      long[] v = values;
      int k = 0;
      for (int i = 0; i < page.count; i++) {
        boolean present = levels == null || levels[i] != 0;
        if (keep == null || keep[row0 + i]) {
          if (present) {
            out.addValue(v[k]);
            if (index != null) {
              index.addLong(v[k]);
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

  /** DOUBLE outputs, from DOUBLE or FLOAT (widened exactly). */
  static final class Doubles extends FlatCopier {
    private double[] dictionary = new double[0];
    private double[] values = new double[0];
    private final boolean floats;

    Doubles(String source, PrimitiveType input) {
      super(source, input);
      this.floats = input.getPrimitiveTypeName() == PrimitiveTypeName.FLOAT;
    }

    @Override
    int[] setDictionary(Dictionary dict, ChunkWriter out) {
      dictionary = new double[dict.getMaxId() + 1];
      for (int id = 0; id < dictionary.length; id++) {
        dictionary[id] = floats ? dict.decodeToFloat(id) : dict.decodeToDouble(id);
      }
      return ((DoubleChunkWriter) out).dictionaryIds(dictionary);
    }

    @Override
    void emitDictionary(int[] outputIds, boolean[] keep, int row0, ChunkWriter chunk, IndexCollector index) {
      DoubleChunkWriter out = (DoubleChunkWriter) chunk;
      if (keep == null && page.present == page.count && outputIds != null) {
        out.addIds(outputIds, page.ids, 0, page.count);
        for (int k = 0; index != null && k < page.count; k++) {
          index.addDouble(dictionary[page.ids[k]]);
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
            index.addDouble(dictionary[ids[k]]);
          }
        }
        if (present) {
          k++;
        }
      }
    }

    @Override
    void decodePlain(int count) {
      values = values.length >= count ? values : new double[Math.max(count, values.length * 2)];
      byte[] bytes = page.bytes;
      int pos = page.from;
      if (floats) {
        for (int k = 0; k < count; k++, pos += 4) {
          values[k] = Float.intBitsToFloat((int) INTS.get(bytes, pos));
        }
      } else {
        for (int k = 0; k < count; k++, pos += 8) {
          values[k] = Double.longBitsToDouble((long) LONGS.get(bytes, pos));
        }
      }
    }

    @Override
    void emitPlain(boolean[] keep, int row0, ChunkWriter chunk, IndexCollector index) {
      DoubleChunkWriter out = (DoubleChunkWriter) chunk;
      if (keep == null && page.present == page.count) {
        out.addValues(values, 0, page.count);
        for (int k = 0; index != null && k < page.count; k++) {
          index.addDouble(values[k]);
        }
        return;
      }
      int[] levels = page.levels;
      int k = 0;
      for (int i = 0; i < page.count; i++) {
        boolean present = levels == null || levels[i] != 0;
        if (keep == null || keep[row0 + i]) {
          if (present) {
            out.addValue(values[k]);
            if (index != null) {
              index.addDouble(values[k]);
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

  /** BOOLEAN outputs. */
  static final class Booleans extends FlatCopier {
    private boolean[] values = new boolean[0];

    Booleans(String source, PrimitiveType input) {
      super(source, input);
    }

    @Override
    int[] setDictionary(Dictionary dict, ChunkWriter out) {
      throw new IllegalStateException("Cannot compact " + source + ": boolean column '" + column
          + "' has a dictionary page");
    }

    @Override
    void emitDictionary(int[] outputIds, boolean[] keep, int row0, ChunkWriter out, IndexCollector index) {
      throw new IllegalStateException("Cannot compact " + source + ": boolean column '" + column
          + "' has dictionary ids");
    }

    @Override
    void decodePlain(int count) {
      values = values.length >= count ? values : new boolean[Math.max(count, values.length * 2)];
      byte[] bytes = page.bytes;
      int from = page.from;
      for (int k = 0; k < count; k++) {
        values[k] = ((bytes[from + (k >>> 3)] >>> (k & 7)) & 1) != 0;
      }
    }

    @Override
    void emitPlain(boolean[] keep, int row0, ChunkWriter chunk, IndexCollector index) {
      BooleanChunkWriter out = (BooleanChunkWriter) chunk;
      int[] levels = page.levels;
      int k = 0;
      for (int i = 0; i < page.count; i++) {
        boolean present = levels == null || levels[i] != 0;
        if (keep == null || keep[row0 + i]) {
          if (present) {
            out.addValue(values[k]);
            if (index != null) {
              index.addBoolean(values[k]);
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

  /**
   * BINARY and FIXED_LEN_BYTE_ARRAY outputs. With a {@code width}, values become that many bytes:
   * decimals are sign-extended (or their redundant sign bytes dropped) and integer-stored decimals
   * turned into two's complement bytes. Values that need no change are handed on as slices of the
   * page's bytes.
   */
  static final class Binaries extends FlatCopier {
    private final int width;
    private Binary[] dictionary = new Binary[0];
    /** Plain values: {@code data[starts[k], starts[k] + lengths[k])}. */
    private byte[] data;
    private int[] starts = new int[0];
    private int[] lengths = new int[0];

    Binaries(String source, PrimitiveType input, int width) {
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
        throw new ValidationException("Cannot compact " + source + ": column '" + column + "' holds a decimal "
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
        throw new ValidationException("Cannot compact " + source + ": column '" + column + "' holds the decimal "
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
}
