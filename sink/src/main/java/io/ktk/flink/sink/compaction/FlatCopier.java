package io.ktk.flink.sink.compaction;

import io.ktk.flink.state.KtkValidationException;
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
            ? new LongCopier(source, input, LongCopier.SAME, 1) : null;
      case DOUBLE:
        return inType == PrimitiveTypeName.DOUBLE || inType == PrimitiveTypeName.FLOAT ? new DoubleCopier(source, input)
            : null;
      case BOOLEAN:
        return inType == PrimitiveTypeName.BOOLEAN ? new BooleanCopier(source, input) : null;
      case BINARY:
        boolean textIn = in instanceof StringLogicalTypeAnnotation || in instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation;
        boolean textOut = out instanceof StringLogicalTypeAnnotation;
        return inType == PrimitiveTypeName.BINARY && (textOut ? textIn : in == null && out == null)
            ? new BinaryCopier(source, input, -1) : null;
      case FIXED_LEN_BYTE_ARRAY:
        int width = output.getTypeLength();
        if (out instanceof DecimalLogicalTypeAnnotation decimalOut) {
          boolean sameScale = in instanceof DecimalLogicalTypeAnnotation decimalIn
              && decimalIn.getScale() == decimalOut.getScale();
          return sameScale && (inType == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY || inType == PrimitiveTypeName.BINARY
              || inType == PrimitiveTypeName.INT32 || inType == PrimitiveTypeName.INT64)
              ? new BinaryCopier(source, input, width) : null;
        }
        return out == null && in == null && inType == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
            && input.getTypeLength() == width ? new BinaryCopier(source, input, width) : null;
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
        return new LongCopier(source, input, LongCopier.SAME, 1);
      }
      return inType == PrimitiveTypeName.INT32
          ? new LongCopier(source, input, unsignedIn ? LongCopier.UNSIGNED_INT : LongCopier.SIGNED_INT, 1) : null;
    }
    if (out instanceof TimestampLogicalTypeAnnotation timestampOut
        && in instanceof TimestampLogicalTypeAnnotation timestampIn
        && inType == PrimitiveTypeName.INT64
        && timestampIn.isAdjustedToUTC() == timestampOut.isAdjustedToUTC()) {
      long inNanos = nanosPerUnit(timestampIn.getUnit());
      long outNanos = nanosPerUnit(timestampOut.getUnit());
      if (inNanos == outNanos) {
        return new LongCopier(source, input, LongCopier.SAME, 1);
      }
      return inNanos > outNanos ? new LongCopier(source, input, LongCopier.MULTIPLY, inNanos / outNanos)
          : new LongCopier(source, input, LongCopier.DIVIDE_EXACTLY, outNanos / inNanos);
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
}
