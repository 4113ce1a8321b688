package io.ktk.flink.source.engine;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The distinct values of one string, binary or decimal key column within a partition (over all
 * datasets that have the column), and their ranks in the column's order: strings by code point
 * (the order of their UTF-8 bytes), binaries by unsigned bytes, decimals by value. Ranking turns
 * such keys into longs that sort and join like the values; values are first given ids as they
 * come ({@link #id}), and the ids become ranks once all values are known ({@link #rank}).
 *
 * <p>Values read from a Parquet dictionary are shared instances, so a column of few distinct
 * strings costs one hash lookup of a cached hash per row.
 */
final class KeyRanks {
  /** Slots of the small cache of recently looked-up instances ({@link #id}); a power of two. */
  private static final int RECENT_SLOTS = 1024;

  private final Map<Object, Integer> ids = new HashMap<>();
  private final List<Object> distinct = new ArrayList<>();
  private int[] ranks;
  /** The instance last looked up in each slot (by its hash), and its id: a hit costs no map lookup. */
  private final Object[] recentValues = new Object[RECENT_SLOTS];
  private final int[] recentIds = new int[RECENT_SLOTS];

  /**
   * The id of {@code value} (not null), adding it if new; ids are valid until {@link #rank}. A
   * string decoded from a file's dictionary is one instance for all rows of that file that hold
   * it, so most lookups find the very instance in the cache of recent ones.
   */
  int id(Object value) {
    if (value instanceof String string) {
      int slot = (string.hashCode() * 0x9E3779B9 >>> 22) & (RECENT_SLOTS - 1);
      if (recentValues[slot] == value) {
        return recentIds[slot];
      }
      int id = lookUp(value);
      recentValues[slot] = value;
      recentIds[slot] = id;
      return id;
    }
    return lookUp(value);
  }

  private int lookUp(Object value) {
    Object key = hashable(value);
    Integer id = ids.get(key);
    if (id == null) {
      id = distinct.size();
      ids.put(key, id);
      distinct.add(value);
      ranks = null;
    }
    return id;
  }

  /** The rank of the value with id {@code id} among all values given ids (0 when none was given one). */
  long rank(int id) {
    if (distinct.isEmpty()) {
      return 0;
    }
    if (ranks == null) {
      Integer[] order = new Integer[distinct.size()];
      Arrays.setAll(order, i -> i);
      Arrays.sort(order, Comparator.comparing(distinct::get, KeyRanks::compare));
      ranks = new int[order.length];
      for (int rank = 0; rank < order.length; rank++) {
        ranks[order[rank]] = rank;
      }
    }
    return ranks[id];
  }

  /** Equal values, equal keys: byte arrays by content, decimals regardless of their scale. */
  private static Object hashable(Object value) {
    if (value instanceof byte[] bytes) {
      return new Bytes(bytes);
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.stripTrailingZeros();
    }
    return value;
  }

  private static int compare(Object a, Object b) {
    if (a instanceof String x && b instanceof String y) {
      return compareCodePoints(x, y);
    }
    if (a instanceof byte[] x && b instanceof byte[] y) {
      return Arrays.compareUnsigned(x, y);
    }
    if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
      return x.compareTo(y);
    }
    throw new IllegalStateException("Cannot rank key values of " + a.getClass() + " and " + b.getClass());
  }

  /** UTF-16 order differs from code point order only when a surrogate meets a char above them. */
  private static int compareCodePoints(String a, String b) {
    int cmp = a.compareTo(b);
    if (cmp == 0) {
      return 0;
    }
    int n = Math.min(a.length(), b.length());
    int i = 0;
    while (i < n && a.charAt(i) == b.charAt(i)) {
      i++;
    }
    if (i == n) {
      return cmp;
    }
    char x = a.charAt(i);
    char y = b.charAt(i);
    if (Character.isSurrogate(x) != Character.isSurrogate(y) && Math.max(x, y) >= 0xE000) {
      return Arrays.compareUnsigned(a.substring(i).getBytes(StandardCharsets.UTF_8),
          b.substring(i).getBytes(StandardCharsets.UTF_8));
    }
    return cmp;
  }

  private record Bytes(byte[] bytes) {
    @Override
    public boolean equals(Object other) {
      return other instanceof Bytes that && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }
  }
}
