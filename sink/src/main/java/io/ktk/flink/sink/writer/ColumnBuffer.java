package io.ktk.flink.sink.writer;

import java.util.Arrays;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.parquet.column.ColumnWriter;

/**
 * The values of one column of a partition's buffered rows, in primitive arrays: nulls as a bit
 * per row (allocated at the first null), values densely in the order of their rows, in the form
 * Parquet stores them (timestamps as microseconds, dates as days, decimals as fixed-width
 * two's complement). Appending allocates only when a block or array fills up.
 *
 * <p>Flat columns of numbers and strings keep their values in blocks from the writer's {@link
 * BlockPool} ({@link ValueBlocks}): they never move to a larger array, and blocks go back to the
 * pool when the buffer is written. The null bits, decimals and nested columns keep arrays that
 * start empty and grow by doubling; {@link #release()} remembers how much they held, so the next
 * arrays start at that size. Every change of capacity is reported to the {@link Account}, so the
 * memory budget counts what the heap holds.
 */
abstract class ColumnBuffer {
  /** Told of every change of the capacity a buffer holds, in bytes. */
  interface Account {
    void grew(long bytes);
  }

  static final int MIN_CAPACITY = 16;
  static final int REJUDGE_EVERY = 8;
  /** The most values a buffer allocates at once from what it held before (so a rare burst is not repeated). */
  static final int MAX_HINT = 1 << 16;
  private static final long[] NO_NULLS = new long[0];

  protected final Account account;
  private long[] nulls = NO_NULLS;
  private int rows;
  /** Values held: the index the next value goes to. */
  protected int count;
  private int cursor;
  /** Files written since {@link #judgedMostlyDistinct} sampled the values (0: judge again), and the verdict. */
  private int filesSinceJudged;
  private boolean distinct;
  /** Values and rows held when last released: the next round likely holds as many. */
  private int valueHint;
  private int rowHint;

  ColumnBuffer(Account account) {
    this.account = account;
  }

  /** A buffer for a column of Flink type {@code type}; the caller has validated the values. */
  static ColumnBuffer forType(LogicalType type, Account account, BlockPool pool) {
    return switch (type.getTypeRoot()) {
      case BOOLEAN -> new FixedWidthColumns.Booleans(account, pool);
      case TINYINT -> new FixedWidthColumns.Ints(account, pool, (row, pos) -> row.getByte(pos));
      case SMALLINT -> new FixedWidthColumns.Ints(account, pool, (row, pos) -> row.getShort(pos));
      case INTEGER, DATE -> new FixedWidthColumns.Ints(account, pool, RowData::getInt);
      case BIGINT -> new FixedWidthColumns.Longs(account, pool, RowData::getLong);
      case TIME_WITHOUT_TIME_ZONE -> new FixedWidthColumns.Longs(account, pool, (row, pos) -> row.getInt(pos) * 1000L);
      case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
        int precision = LogicalTypeChecks.getPrecision(type);
        yield new FixedWidthColumns.Longs(account, pool, (row, pos) -> {
          var timestamp = row.getTimestamp(pos, precision);
          return timestamp.getMillisecond() * 1000L + timestamp.getNanoOfMillisecond() / 1000;
        });
      }
      case FLOAT -> new FixedWidthColumns.Floats(account, pool);
      case DOUBLE -> new FixedWidthColumns.Doubles(account, pool);
      case CHAR, VARCHAR -> new BytesColumns.Strings(account, pool);
      case BINARY, VARBINARY -> new BytesColumns.Binaries(account, pool);
      case DECIMAL -> new BytesColumns.Decimals(account, (DecimalType) type);
      case NULL -> new NullColumn(account);
      case ARRAY, ROW -> new NestedColumn(type, account, pool);
      default -> throw new IllegalArgumentException("Cannot buffer a column of type " + type.asSummaryString());
    };
  }

  /** Appends the value of column {@code pos} of {@code row}. */
  final void append(RowData row, int pos) {
    if (row.isNullAt(pos)) {
      markNull(rows);
      appendNull();
    } else {
      appendValue(row, pos);
      count++;
    }
    rows++;
  }

  /**
   * Appends only the non-null value of column {@code pos} of {@code row}, without a row of its
   * own: how the leaves of a nested column keep their values (their nulls are levels).
   */
  final void appendPresent(RowData row, int pos) {
    appendValue(row, pos);
    count++;
  }

  /** Stores the non-null value of column {@code pos} of {@code row} at index {@link #count}. */
  abstract void appendValue(RowData row, int pos);

  /** Called for a row whose value is null, after its null bit is set. */
  void appendNull() {}

  /**
   * Writes value {@code index} (not row: nulls hold no value) with repetition level {@code rep}
   * and definition level {@code def}.
   */
  abstract void write(ColumnWriter writer, int index, int rep, int def);

  /** How many Parquet leaf columns the column has when it holds values: 1, more when nested. */
  int leafCount() {
    return 1;
  }

  /** Prepares {@link #writeRow} to start at row 0. */
  void startWriting() {
    cursor = 0;
  }

  /**
   * Writes row {@code row} (rows in order from 0, after {@link #startWriting}) to the leaf writers
   * {@code writers[first .. first + leafCount())}. A flat column writes a null or its next value
   * as an optional field.
   */
  void writeRow(ColumnWriter[] writers, int first, int row) {
    if (count < rows && isNull(row)) {
      writers[first].writeNull(0, 0);
    } else {
      write(writers[first], cursor++, 0, 1);
    }
  }

  /**
   * Whether the values look too distinct for a dictionary, judged on the first {@value
   * DistinctSample#SIZE} values: Parquet would build one for the first page only to find it does
   * not pay and re-encode the page plainly (for ids and timestamps, every file). Such columns are
   * written plainly from the start: the same encoding, half the work. Columns that cannot tell
   * cheaply say no.
   */
  boolean mostlyDistinct() {
    return false;
  }

  /**
   * The values for {@link ChunkEncoder}, which writes the pages of a flat column from its arrays;
   * null when the column is written value by value ({@link #writeRow}).
   */
  FlatValues flatValues() {
    return null;
  }

  /** Bytes the values take (not the capacity held); the capacity where the column cannot tell. */
  long usedBytes() {
    return valueBytes();
  }

  /**
   * {@link #mostlyDistinct}, remembered from a file with a full sample for the next {@value
   * #REJUDGE_EVERY} files of this buffer: its values rarely change character between checkpoints,
   * and sampling them is a fair part of writing a small file.
   */
  final boolean judgedMostlyDistinct() {
    if (filesSinceJudged > 0 && filesSinceJudged < REJUDGE_EVERY) {
      filesSinceJudged++;
      return distinct;
    }
    distinct = mostlyDistinct();
    filesSinceJudged = count >= DistinctSample.SIZE ? 1 : 0;
    return distinct;
  }

  /** Capacity of the value arrays, in bytes. */
  abstract long valueBytes();

  /** Drops the value arrays (gives the blocks back to the pool). */
  abstract void releaseValues();

  /** Forgets the values but keeps room for the next ones (block columns: their first block). */
  void clearValues() {}

  final boolean isNull(int row) {
    int word = row >>> 6;
    return word < nulls.length && (nulls[word] & (1L << row)) != 0;
  }

  final boolean hasNulls() {
    return count < rows;
  }

  /** How many of rows {@code fromRow .. toRow} are null, a word of null bits at a time. */
  final int nullCount(int fromRow, int toRow) {
    if (!hasNulls()) {
      return 0;
    }
    int nullRows = 0;
    for (int row = fromRow; row < toRow; row += 64) {
      nullRows += Long.bitCount(nullBits(row, Math.min(64, toRow - row)));
    }
    return nullRows;
  }

  /** The null bits of rows {@code row .. row + n} ({@code n <= 64}), row {@code row} in the lowest bit. */
  final long nullBits(int row, int n) {
    int word = row >>> 6;
    int shift = row & 63;
    long bits = word < nulls.length ? nulls[word] >>> shift : 0L;
    if (shift != 0 && n > 64 - shift && word + 1 < nulls.length) {
      bits |= nulls[word + 1] << (64 - shift);
    }
    return n == 64 ? bits : bits & ((1L << n) - 1);
  }

  final long allocatedBytes() {
    return 8L * nulls.length + valueBytes();
  }

  /** Whether {@link #clear} keeps the arrays: flat columns do; nested ones drop them as {@link #release} does. */
  boolean keepsArrays() {
    return true;
  }

  /**
   * Forgets every row but keeps the arrays for the next rows, which would need them again (the
   * capacity stays counted); values already handed to Parquet are written by then.
   */
  final void clear() {
    if (!keepsArrays()) {
      release();
      return;
    }
    Arrays.fill(nulls, 0, Math.min(nulls.length, (rows + 63) >>> 6), 0L);
    clearValues();
    rows = 0;
    count = 0;
  }

  /** Forgets every row and drops the arrays, reporting the freed capacity. */
  final void release() {
    account.grew(-allocatedBytes());
    valueHint = Math.min(MAX_HINT, count);
    rowHint = Math.min(MAX_HINT, rows);
    nulls = NO_NULLS;
    releaseValues();
    rows = 0;
    count = 0;
  }

  /**
   * The next capacity of a value array of {@code length} elements that is full: at first, what
   * the column held when last released and an eighth more (so that a steady stream of rows fills
   * the arrays without growing them after each file), then doubling.
   */
  final int grownValues(int length) {
    if (length == 0 && valueHint > MIN_CAPACITY) {
      return valueHint + valueHint / 8;
    }
    return grown(length);
  }

  private void markNull(int row) {
    int word = row >>> 6;
    if (word >= nulls.length) {
      int hinted = nulls.length == 0 ? (rowHint + rowHint / 8 + 63) / 64 : 0;
      int capacity = Math.max(Math.max(Math.max(MIN_CAPACITY / 8, word + 1), nulls.length * 2), hinted);
      account.grew(8L * (capacity - nulls.length));
      nulls = Arrays.copyOf(nulls, capacity);
    }
    nulls[word] |= 1L << row;
  }

  /** The next capacity of an array of {@code length} elements that is full. */
  static int grown(int length) {
    long doubled = Math.max(MIN_CAPACITY, 2L * length);
    if (length >= Integer.MAX_VALUE - 8) {
      throw new IllegalStateException("Cannot grow a column buffer beyond " + length + " elements");
    }
    return (int) Math.min(doubled, Integer.MAX_VALUE - 8);
  }

  /**
   * Counts the distinct 64-bit patterns among up to {@value #SIZE} values offered, in an
   * open-addressing table: "mostly distinct" is more than 90% of them distinct.
   */
  static final class DistinctSample {
    static final int SIZE = 4096;
    private static final int MIN_VALUES = 32;
    private final long[] slots;
    private boolean zero;
    private int offered;
    private int distinct;

    /** A sample of the first of {@code values} values (the table fits the sample, not {@value #SIZE}). */
    DistinctSample(int values) {
      slots = new long[Math.max(64, Integer.highestOneBit(Math.max(1, Math.min(values, SIZE)) - 1) << 2)];
    }

    boolean full() {
      return offered >= SIZE;
    }

    void offer(long bits) {
      offered++;
      if (bits == 0) {
        if (!zero) {
          zero = true;
          distinct++;
        }
        return;
      }
      int mask = slots.length - 1;
      long h = bits * 0x9E3779B97F4A7C15L;
      int i = (int) (h ^ (h >>> 32)) & mask;
      while (slots[i] != 0) {
        if (slots[i] == bits) {
          return;
        }
        i = (i + 1) & mask;
      }
      slots[i] = bits;
      distinct++;
    }

    boolean mostlyDistinct() {
      return offered >= MIN_VALUES && distinct * 10L > offered * 9L;
    }
  }

  /** A column of Flink type NULL: every row is null. */
  private static final class NullColumn extends ColumnBuffer {
    NullColumn(Account account) {
      super(account);
    }

    @Override
    void appendValue(RowData row, int pos) {
      throw new IllegalStateException("A column of type NULL holds a value");
    }

    @Override
    void write(ColumnWriter writer, int index, int rep, int def) {
      throw new IllegalStateException("A column of type NULL holds a value");
    }

    @Override
    long valueBytes() {
      return 0;
    }

    @Override
    void releaseValues() {}
  }
}
