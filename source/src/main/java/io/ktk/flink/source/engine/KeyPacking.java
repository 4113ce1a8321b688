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
 * packed ({@link #of} returns null) and stay columns.
 */
final class KeyPacking {
  /** One part of a column's key: the first or second long of each row. */
  private record Part(long min, int bits, boolean nullable) {}

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
        long[] range = ranges.computeIfAbsent(name, n -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE,
            Long.MAX_VALUE, Long.MIN_VALUE});
        boolean[] nulls = nullable.computeIfAbsent(name, n -> new boolean[1]);
        widen(range, 0, column.first(), column.nulls(), datasetKeys.rows());
        if (column.second() != null) {
          widen(range, 2, column.second(), column.nulls(), datasetKeys.rows());
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
        long min = range[2 * p];
        long max = range[2 * p + 1];
        if (min > max) {
          min = 0;
          max = 0;
        }
        // the range as an unsigned number; a nullable first part counts one more value (null, 0)
        long span = max - min + (nulls && p == 0 ? 1 : 0);
        if (span < 0) {
          return null;
        }
        columnParts[p] = new Part(min, 64 - Long.numberOfLeadingZeros(span), nulls && p == 0);
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

  private static void widen(long[] range, int at, long[] values, boolean[] nulls, int rows) {
    long min = range[at];
    long max = range[at + 1];
    for (int row = 0; row < rows; row++) {
      if (nulls == null || !nulls[row]) {
        long value = values[row];
        min = Math.min(min, value);
        max = Math.max(max, value);
      }
    }
    range[at] = min;
    range[at + 1] = max;
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
    if (nulls == null) {
      for (int row = 0; row < rows; row++) {
        packed[row] = packed[row] << bits | (values[row] - offset);
      }
    } else {
      for (int row = 0; row < rows; row++) {
        packed[row] = packed[row] << bits | (nulls[row] ? 0 : values[row] - offset);
      }
    }
  }
}
