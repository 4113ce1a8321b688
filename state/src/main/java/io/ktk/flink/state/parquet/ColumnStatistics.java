package io.ktk.flink.state.parquet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnOrder;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.Statistics;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * What the footer says about the values of one top-level primitive column in one row group, as
 * typed Java values (the convention of {@link ParquetRowsReader}), kept only where the format makes
 * it trustworthy. A reader that skips row groups by it must treat every unknown as "anything".
 *
 * <p>Which bounds are kept (parquet-format, {@code Statistics} and {@code ColumnOrder}):
 *
 * <ul>
 *   <li>{@code min_value}/{@code max_value} when the file declares {@code TYPE_ORDER} or {@code
 *       IEEE_754_TOTAL_ORDER} for the column (without {@code column_orders} their meaning is
 *       undefined). They are bounds, not necessarily values (writers may truncate strings).
 *   <li>the deprecated {@code min}/{@code max} only where their signed order is the type's order:
 *       signed integers, dates, times, timestamps and decimals stored as INT32/INT64, FLOAT, DOUBLE,
 *       BOOLEAN. Never for unsigned integers, strings, binary or decimals stored as bytes (old writers
 *       compared those as signed bytes).
 *   <li>never for INT96, FLOAT16, or a column with an undefined or unknown order.
 *   <li>FLOAT/DOUBLE: a NaN bound is dropped (TYPE_ORDER leaves NaN's place undefined; under
 *       IEEE_754_TOTAL_ORDER a NaN bound means all values are NaN, which {@link #nanCount()} tells too).
 *       Bounds of non-NaN values therefore say nothing about NaNs: {@link #nanCount()} is -1 unless
 *       the writer counted them, and then NaNs must be assumed present. A zero bound may stand for
 *       either sign of zero.
 *   <li>a string bound that is not valid UTF-8 drops both bounds.
 * </ul>
 *
 * @param rows the row group's row count
 * @param nullCount nulls in the column, or -1 when the writer did not count them; a column of
 *     Parquet's null type (logical type UNKNOWN) holds only nulls whatever the count says
 * @param nanCount NaNs in a FLOAT/DOUBLE column, or -1 when not counted (or another type)
 * @param min a lower bound of the non-null (and non-NaN) values, or null when unknown
 * @param max an upper bound of them, or null when unknown; null exactly when {@code min} is
 */
public record ColumnStatistics(long rows, long nullCount, long nanCount, Object min, Object max) {

  public ColumnStatistics {
    if ((min == null) != (max == null)) {
      throw new IllegalArgumentException("min and max must both be known or both unknown: " + min + ", " + max);
    }
  }

  /** Statistics that say nothing but the row count. */
  public static ColumnStatistics unknown(long rows) {
    return new ColumnStatistics(rows, -1, -1, null, null);
  }

  /** Whether every value is null. */
  public boolean allNull() {
    return nullCount >= 0 && nullCount >= rows;
  }

  /** Whether every non-null value is NaN (and there is at least one). */
  public boolean allNaN() {
    return nanCount > 0 && nullCount >= 0 && nanCount + nullCount >= rows;
  }

  /** Whether NaN may be among the values: unless the writer counted none. */
  public boolean mayHoldNaN() {
    return nanCount != 0;
  }

  /**
   * The statistics of top-level column {@code column} in row group {@code rowGroup}, or null when
   * the file has no such top-level primitive column.
   */
  static ColumnStatistics of(FileMetaData file, MessageType schema, int rowGroup, String column) {
    if (!schema.containsField(column)) {
      return null;
    }
    Type field = schema.getType(column);
    if (!field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED)) {
      return null;
    }
    PrimitiveType type = field.asPrimitiveType();
    List<String[]> paths = schema.getPaths();
    int leaf = -1;
    for (int i = 0; i < paths.size(); i++) {
      if (paths.get(i).length == 1 && paths.get(i)[0].equals(column)) {
        leaf = i;
      }
    }
    long rows = file.getRow_groups().get(rowGroup).getNum_rows();
    if (type.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.UnknownLogicalTypeAnnotation) {
      return new ColumnStatistics(rows, rows, -1, null, null);
    }
    ColumnChunk chunk = leaf < 0 ? null : file.getRow_groups().get(rowGroup).getColumns().get(leaf);
    if (chunk == null || !chunk.isSetMeta_data() || !chunk.getMeta_data().isSetStatistics()) {
      return unknown(rows);
    }
    Statistics stats = chunk.getMeta_data().getStatistics();
    long nulls = stats.isSetNull_count() ? stats.getNull_count() : -1;
    boolean floating = type.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.FLOAT
        || type.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.DOUBLE;
    long nans = floating && stats.isSetNan_count() ? stats.getNan_count() : -1;
    byte[][] bounds = bounds(file, leaf, type, stats);
    if (bounds == null) {
      return new ColumnStatistics(rows, nulls, nans, null, null);
    }
    Object min = decode(type, bounds[0]);
    Object max = decode(type, bounds[1]);
    if (min == null || max == null || min instanceof Double d && d.isNaN() || max instanceof Double e && e.isNaN()) {
      return new ColumnStatistics(rows, nulls, nans, null, null);
    }
    return new ColumnStatistics(rows, nulls, nans, min, max);
  }

  /** The raw bounds the rules above allow, or null. */
  private static byte[][] bounds(FileMetaData file, int leaf, PrimitiveType type, Statistics stats) {
    PrimitiveType.PrimitiveTypeName physical = type.getPrimitiveTypeName();
    LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
    if (physical == PrimitiveType.PrimitiveTypeName.INT96
        || logical instanceof LogicalTypeAnnotation.Float16LogicalTypeAnnotation
        || logical instanceof LogicalTypeAnnotation.IntervalLogicalTypeAnnotation) {
      return null;
    }
    if (stats.isSetMin_value() && stats.isSetMax_value()) {
      List<ColumnOrder> orders = file.getColumn_orders();
      if (orders == null || leaf >= orders.size()) {
        return null;
      }
      ColumnOrder order = orders.get(leaf);
      boolean defined = order.isSetTYPE_ORDER() || (order.isSetIEEE_754_TOTAL_ORDER()
          && (physical == PrimitiveType.PrimitiveTypeName.FLOAT || physical == PrimitiveType.PrimitiveTypeName.DOUBLE));
      return defined ? new byte[][] {stats.getMin_value(), stats.getMax_value()} : null;
    }
    if (stats.isSetMin() && stats.isSetMax() && signedOrderIsTypeOrder(physical, logical)) {
      return new byte[][] {stats.getMin(), stats.getMax()};
    }
    return null;
  }

  private static boolean signedOrderIsTypeOrder(PrimitiveType.PrimitiveTypeName physical,
      LogicalTypeAnnotation logical) {
    return switch (physical) {
      case BOOLEAN, FLOAT, DOUBLE -> true;
      case INT32, INT64 -> !(logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && !i.isSigned());
      default -> false;
    };
  }

  /** A PLAIN-encoded bound (without length prefix) as a typed value, or null when it cannot be decoded. */
  private static Object decode(PrimitiveType type, byte[] bytes) {
    ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    String path = type.getName();
    LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
    try {
      switch (type.getPrimitiveTypeName()) {
        case BOOLEAN:
          return bytes.length == 1 ? bytes[0] != 0 : null;
        case INT32:
          return bytes.length == 4 ? RowConverters.int32(logical, path, type).apply(buffer.getInt()) : null;
        case INT64:
          return bytes.length == 8 ? RowConverters.int64(logical, path, type).apply(buffer.getLong()) : null;
        case FLOAT:
          return bytes.length == 4 ? (double) buffer.getFloat() : null;
        case DOUBLE:
          return bytes.length == 8 ? buffer.getDouble() : null;
        case BINARY:
        case FIXED_LEN_BYTE_ARRAY:
          if (logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
              || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
              || logical instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation) {
            return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
          }
          return RowConverters.binary(logical, type).apply(Binary.fromConstantByteArray(bytes));
        default:
          return null;
      }
    } catch (CharacterCodingException | RuntimeException e) {
      return null;
    }
  }
}
