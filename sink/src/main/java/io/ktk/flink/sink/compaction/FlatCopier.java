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
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
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
  private int outDefinition;

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
            ? new Ints(source, input) : null;
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
   * Writes the rows of one input column chunk to {@code out}, a writer of {@code store} (whose
   * record ends after each written row).
   *
   * @param descriptor the input column
   * @param keep per row of the chunk whether it is written; null writes every row
   * @param index gathers the written values, or null
   */
  final void copy(ColumnDescriptor descriptor, DictionaryPage dictionaryPage, List<DataPage> pages, boolean[] keep,
      ColumnDescriptor outDescriptor, ColumnWriter out, ColumnWriteStore store, IndexCollector index)
      throws IOException {
    outDefinition = outDescriptor.getMaxDefinitionLevel();
    if (dictionaryPage != null) {
      setDictionary(dictionaryPage.getEncoding().initDictionary(descriptor, dictionaryPage));
    }
    int row = 0;
    for (DataPage data : pages) {
      page.load(descriptor, data);
      if (page.dictionary) {
        gather(page.ids, page.present);
      } else {
        decodePlain(page.present);
      }
      emit(keep, row, out, store, index);
      row += page.count;
    }
  }

  /** Takes the values of a dictionary page, converted. */
  abstract void setDictionary(Dictionary dictionary);

  /** Puts the dictionary values of {@code ids} into the page's value slots {@code [0, count)}. */
  abstract void gather(int[] ids, int count);

  /** Decodes {@code count} plain values from the page's bytes into the value slots, converted. */
  abstract void decodePlain(int count);

  /** Writes the page's rows that {@code keep} keeps, from its value slots. */
  abstract void emit(boolean[] keep, int row0, ColumnWriter out, ColumnWriteStore store, IndexCollector index);

  final void writeNull(ColumnWriter out) {
    if (outDefinition == 0) {
      throw new ValidationException("Cannot compact " + source + ": column '" + column + "' holds a null, but the "
          + "dataset's schema declares it not nullable");
    }
    out.writeNull(0, 0);
  }

  final int outDefinition() {
    return outDefinition;
  }

  static long[] grow(long[] array, int count) {
    return array.length >= count ? array : new long[Math.max(count, array.length * 2)];
  }

  /** INT64 outputs: integers, unsigned 64-bit integers, timestamps. */
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
    void setDictionary(Dictionary dict) {
      dictionary = new long[dict.getMaxId() + 1];
      for (int id = 0; id < dictionary.length; id++) {
        dictionary[id] = convert(input.getPrimitiveTypeName() == PrimitiveTypeName.INT32
            ? dict.decodeToInt(id) : dict.decodeToLong(id));
      }
    }

    @Override
    void gather(int[] ids, int count) {
      values = grow(values, count);
      for (int k = 0; k < count; k++) {
        values[k] = dictionary[ids[k]];
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
      if (conversion != SAME) {
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
    void emit(boolean[] keep, int row0, ColumnWriter out, ColumnWriteStore store, IndexCollector index) {
      int definition = outDefinition();
      int[] levels = page.levels;
      long[] v = values;
      int k = 0;
      for (int i = 0; i < page.count; i++) {
        boolean present = levels == null || levels[i] != 0;
        if (keep == null || keep[row0 + i]) {
          if (present) {
            out.write(v[k], 0, definition);
            if (index != null) {
              index.addLong(v[k]);
            }
          } else {
            writeNull(out);
          }
          store.endRecord();
        }
        if (present) {
          k++;
        }
      }
    }
  }

  /** INT32 outputs of the same logical type as the input (dates). */
  static final class Ints extends FlatCopier {
    private int[] dictionary = new int[0];
    private int[] values = new int[0];

    Ints(String source, PrimitiveType input) {
      super(source, input);
    }

    @Override
    void setDictionary(Dictionary dict) {
      dictionary = new int[dict.getMaxId() + 1];
      Arrays.setAll(dictionary, dict::decodeToInt);
    }

    @Override
    void gather(int[] ids, int count) {
      values = values.length >= count ? values : new int[Math.max(count, values.length * 2)];
      for (int k = 0; k < count; k++) {
        values[k] = dictionary[ids[k]];
      }
    }

    @Override
    void decodePlain(int count) {
      values = values.length >= count ? values : new int[Math.max(count, values.length * 2)];
      byte[] bytes = page.bytes;
      int pos = page.from;
      for (int k = 0; k < count; k++, pos += 4) {
        values[k] = (int) INTS.get(bytes, pos);
      }
    }

    @Override
    void emit(boolean[] keep, int row0, ColumnWriter out, ColumnWriteStore store, IndexCollector index) {
      int definition = outDefinition();
      int[] levels = page.levels;
      int k = 0;
      for (int i = 0; i < page.count; i++) {
        boolean present = levels == null || levels[i] != 0;
        if (keep == null || keep[row0 + i]) {
          if (present) {
            out.write(values[k], 0, definition);
            if (index != null) {
              index.addLong(values[k]);
            }
          } else {
            writeNull(out);
          }
          store.endRecord();
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
    void setDictionary(Dictionary dict) {
      dictionary = new double[dict.getMaxId() + 1];
      for (int id = 0; id < dictionary.length; id++) {
        dictionary[id] = floats ? dict.decodeToFloat(id) : dict.decodeToDouble(id);
      }
    }

    @Override
    void gather(int[] ids, int count) {
      values = values.length >= count ? values : new double[Math.max(count, values.length * 2)];
      for (int k = 0; k < count; k++) {
        values[k] = dictionary[ids[k]];
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
    void emit(boolean[] keep, int row0, ColumnWriter out, ColumnWriteStore store, IndexCollector index) {
      int definition = outDefinition();
      int[] levels = page.levels;
      int k = 0;
      for (int i = 0; i < page.count; i++) {
        boolean present = levels == null || levels[i] != 0;
        if (keep == null || keep[row0 + i]) {
          if (present) {
            out.write(values[k], 0, definition);
            if (index != null) {
              index.addDouble(values[k]);
            }
          } else {
            writeNull(out);
          }
          store.endRecord();
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
    void setDictionary(Dictionary dict) {
      throw new IllegalStateException("Cannot compact " + source + ": boolean column '" + column
          + "' has a dictionary page");
    }

    @Override
    void gather(int[] ids, int count) {
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
    void emit(boolean[] keep, int row0, ColumnWriter out, ColumnWriteStore store, IndexCollector index) {
      int definition = outDefinition();
      int[] levels = page.levels;
      int k = 0;
      for (int i = 0; i < page.count; i++) {
        boolean present = levels == null || levels[i] != 0;
        if (keep == null || keep[row0 + i]) {
          if (present) {
            out.write(values[k], 0, definition);
            if (index != null) {
              index.addBoolean(values[k]);
            }
          } else {
            writeNull(out);
          }
          store.endRecord();
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
   * turned into two's complement bytes.
   */
  static final class Binaries extends FlatCopier {
    private final int width;
    private Binary[] dictionary = new Binary[0];
    private Binary[] values = new Binary[0];

    Binaries(String source, PrimitiveType input, int width) {
      super(source, input);
      this.width = width;
    }

    @Override
    void setDictionary(Dictionary dict) {
      dictionary = new Binary[dict.getMaxId() + 1];
      for (int id = 0; id < dictionary.length; id++) {
        dictionary[id] = switch (input.getPrimitiveTypeName()) {
          case INT32 -> fromLong(dict.decodeToInt(id));
          case INT64 -> fromLong(dict.decodeToLong(id));
          default -> resized(dict.decodeToBinary(id));
        };
      }
    }

    @Override
    void gather(int[] ids, int count) {
      ensure(count);
      for (int k = 0; k < count; k++) {
        values[k] = dictionary[ids[k]];
      }
    }

    @Override
    void decodePlain(int count) {
      ensure(count);
      byte[] bytes = page.bytes;
      int pos = page.from;
      switch (input.getPrimitiveTypeName()) {
        case BINARY -> {
          for (int k = 0; k < count; k++) {
            int length = (int) INTS.get(bytes, pos);
            values[k] = resized(Binary.fromReusedByteArray(bytes, pos + 4, length));
            pos += 4 + length;
          }
        }
        case FIXED_LEN_BYTE_ARRAY -> {
          int length = input.getTypeLength();
          for (int k = 0; k < count; k++, pos += length) {
            values[k] = resized(Binary.fromReusedByteArray(bytes, pos, length));
          }
        }
        case INT32 -> {
          for (int k = 0; k < count; k++, pos += 4) {
            values[k] = fromLong((int) INTS.get(bytes, pos));
          }
        }
        case INT64 -> {
          for (int k = 0; k < count; k++, pos += 8) {
            values[k] = fromLong((long) LONGS.get(bytes, pos));
          }
        }
        default -> throw new IllegalStateException("Cannot copy " + input + " as bytes");
      }
    }

    private void ensure(int count) {
      if (values.length < count) {
        values = new Binary[Math.max(count, values.length * 2)];
      }
    }

    /** The value in the output's width (unchanged without one): two's complement, big-endian. */
    private Binary resized(Binary value) {
      if (width < 0 || value.length() == width) {
        return value;
      }
      ByteBuffer buffer = heap(value);
      byte[] in = buffer.array();
      int from = buffer.arrayOffset() + buffer.position();
      int length = buffer.remaining();
      byte[] out = new byte[width];
      byte sign = length > 0 && in[from] < 0 ? (byte) -1 : 0;
      if (length <= width) {
        Arrays.fill(out, 0, width - length, sign);
        System.arraycopy(in, from, out, width - length, length);
      } else {
        int dropped = length - width;
        boolean fits = (in[from + dropped] < 0) == (sign < 0);
        for (int i = 0; i < dropped && fits; i++) {
          fits = in[from + i] == sign;
        }
        if (!fits) {
          throw new ValidationException("Cannot compact " + source + ": column '" + column + "' holds a decimal "
              + "of " + length + " bytes that does not fit the " + width + " bytes of the dataset's decimal type");
        }
        System.arraycopy(in, from + dropped, out, 0, width);
      }
      return Binary.fromConstantByteArray(out);
    }

    /** The value's bytes as a heap buffer (a view when the value has one). */
    private static ByteBuffer heap(Binary value) {
      ByteBuffer buffer = value.toByteBuffer();
      return buffer.hasArray() ? buffer : ByteBuffer.wrap(value.getBytes());
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
    void emit(boolean[] keep, int row0, ColumnWriter out, ColumnWriteStore store, IndexCollector index) {
      int definition = outDefinition();
      int[] levels = page.levels;
      int k = 0;
      for (int i = 0; i < page.count; i++) {
        boolean present = levels == null || levels[i] != 0;
        if (keep == null || keep[row0 + i]) {
          if (present) {
            Binary value = values[k];
            out.write(value, 0, definition);
            if (index != null) {
              ByteBuffer bytes = heap(value);
              index.addBytes(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
            }
          } else {
            writeNull(out);
          }
          store.endRecord();
        }
        if (present) {
          k++;
        }
      }
    }
  }
}
