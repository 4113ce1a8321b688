package io.ktk.flink.source.engine;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Packs the keys of several columns into one long per row, when their values span few enough
 * bits: a composite key such as {@code (sensor, ts)} then sorts, de-duplicates and joins as one
 * number, like a key of one integer column ({@link CellKeys#singleWords}), instead of column by
 * column.
 *
 * <p>Each key column's longs ({@link CellKeys.Column}: one per row, two for timestamps) are taken
 * relative to their minimum over every dataset of the partition that has the column, so the packed
 * keys of two datasets compare as their keys do; a column with nulls anywhere reserves the value 0
 * for them (nulls first). The parts are concatenated from the first column (highest bits) to the
 * last, so packed keys order like the keys. When the parts need more than 63 bits the keys are not
 * packed ({@link #of} returns null) and stay columns. A timestamp's nanoseconds that are all
 * multiples of a thousand or a million (microsecond or millisecond timestamps) are packed divided
 * by that, so that they take fewer bits and the keys sort in fewer passes.
 */
final class KeyPacking {
  /**
   * One part of a column's key: the first or second long of each row, taken relative to {@code
   * min} and divided by {@code divisor} (which divides every value).
   */
  private record Part(long min, int bits, boolean nullable, long divisor) {}

  private final Map<String, Part[]> parts;

  private KeyPacking(Map<String, Part[]> parts) {
    this.parts = parts;
  }

  /**
   * The packing of the key columns {@code names.get(d)} of every dataset {@code d}, whose keys are
   * {@code keys.get(d)} (ranks resolved); null when the widest key (the seed's, the first) would not
   * fit 63 bits, or when there is nothing to gain (no key, or one long already).
   */
  static KeyPacking of(List<List<String>> names, List<CellKeys> keys) {
    if (names.isEmpty() || names.get(0).isEmpty() || keys.get(0).singleWords() != null) {
      return null;
    }
    Map<String, long[]> ranges = new HashMap<>();
    Map<String, boolean[]> nullable = new HashMap<>();
    Map<String, Integer> partCount = new HashMap<>();
    for (int d = 0; d < names.size(); d++) {
      CellKeys datasetKeys = keys.get(d);
      for (int c = 0; c < names.get(d).size(); c++) {
        String name = names.get(d).get(c);
        CellKeys.Column column = datasetKeys.column(c);
        int count = column.second() == null ? 1 : 2;
        partCount.merge(name, count, Math::max);
        // per part: min, max, and a divisor of every value (1, 1000 or 1000000)
        long[] range = ranges.computeIfAbsent(name, n -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE, 1_000_000,
            Long.MAX_VALUE, Long.MIN_VALUE, 1_000_000});
        boolean[] nulls = nullable.computeIfAbsent(name, n -> new boolean[1]);
        widen(range, 0, column.first(), column.nulls(), datasetKeys.rows());
        if (column.second() != null) {
          widen(range, 3, column.second(), column.nulls(), datasetKeys.rows());
        }
        nulls[0] |= column.nulls() != null;
      }
    }
    Map<String, Part[]> parts = new HashMap<>();
    for (Map.Entry<String, long[]> e : ranges.entrySet()) {
      long[] range = e.getValue();
      boolean nulls = nullable.get(e.getKey())[0];
      Part[] columnParts = new Part[partCount.get(e.getKey())];
      for (int p = 0; p < columnParts.length; p++) {
        long min = range[3 * p];
        long max = range[3 * p + 1];
        if (min > max) {
          min = 0;
          max = 0;
        }
        boolean withNulls = nulls && p == 0;
        // the range as an unsigned number; a nullable first part counts one more value (null, 0)
        long span = max - min + (withNulls ? 1 : 0);
        if (span < 0) {
          return null;
        }
        long divisor = withNulls ? 1 : range[3 * p + 2];
        columnParts[p] = new Part(min, 64 - Long.numberOfLeadingZeros(Long.divideUnsigned(span, divisor)), withNulls,
            divisor);
      }
      parts.put(e.getKey(), columnParts);
    }
    int bits = 0;
    for (String name : names.get(0)) {
      for (Part part : parts.get(name)) {
        bits += part.bits();
      }
    }
    return bits <= 63 ? new KeyPacking(parts) : null;
  }

  /** Widens the range at {@code range[at]} (min, max) by {@code values}, and narrows its divisor (at + 2). */
  private static void widen(long[] range, int at, long[] values, boolean[] nulls, int rows) {
    long min = range[at];
    long max = range[at + 1];
    // only second parts (the nanoseconds of timestamps) are looked at for a divisor: first parts keep 1
    boolean thousands = at > 0 && range[at + 2] >= 1_000;
    boolean millions = at > 0 && range[at + 2] >= 1_000_000;
    for (int row = 0; row < rows; row++) {
      if (nulls == null || !nulls[row]) {
        long value = values[row];
        min = Math.min(min, value);
        max = Math.max(max, value);
        if (thousands) {
          thousands = value % 1_000 == 0;
          millions &= value % 1_000_000 == 0;
        }
      }
    }
    range[at] = min;
    range[at + 1] = max;
    range[at + 2] = millions ? 1_000_000 : thousands ? 1_000 : 1;
  }

  /** The packed keys of {@code keys}, whose columns are {@code names} (some of the packed columns, in key order). */
  long[] pack(CellKeys keys, List<String> names) {
    int rows = keys.rows();
    long[] packed = new long[rows];
    for (int c = 0; c < names.size(); c++) {
      CellKeys.Column column = keys.column(c);
      Part[] columnParts = parts.get(names.get(c));
      append(packed, rows, column.first(), column.nulls(), columnParts[0]);
      if (columnParts.length > 1) {
        append(packed, rows, column.second(), column.nulls(), columnParts[1]);
      }
    }
    return packed;
  }

  private static void append(long[] packed, int rows, long[] values, boolean[] nulls, Part part) {
    int bits = part.bits();
    if (bits == 0) {
      return;
    }
    long offset = part.min() - (part.nullable() ? 1 : 0);
    long divisor = part.divisor();
    if (nulls == null && divisor == 1) {
      for (int row = 0; row < rows; row++) {
        packed[row] = packed[row] << bits | (values[row] - offset);
      }
    } else if (nulls == null && divisor == 1_000) {
      // the values less the minimum fit the part's bits (at most 63 in all), so they divide as signed longs
      for (int row = 0; row < rows; row++) {
        packed[row] = packed[row] << bits | (values[row] - offset) / 1_000;
      }
    } else if (nulls == null) {
      for (int row = 0; row < rows; row++) {
        packed[row] = packed[row] << bits | (values[row] - offset) / 1_000_000;
      }
    } else {
      // a null is 0 (a nullable first part, never divided, holds the minimum as 1; a second part's 0 is
      // never compared, the first part tells nulls apart)
      for (int row = 0; row < rows; row++) {
        packed[row] = packed[row] << bits | (nulls[row] ? 0 : (values[row] - offset) / divisor);
      }
    }
  }
}
