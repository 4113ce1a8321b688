package io.ktk.flink.source.engine;

import io.ktk.flink.state.vector.DoubleVector;
import io.ktk.flink.state.vector.LongType;
import io.ktk.flink.state.vector.LongVector;
import io.ktk.flink.state.vector.ObjectVector;
import io.ktk.flink.state.vector.TypedVector;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

/**
 * The keys of a dataset's rows in one partition, as order-preserving longs: per key column one
 * array of longs (two for timestamps) and the rows that are null. Keys of two datasets compare
 * column by column when their columns have the same types (the {@link KeyKind}s and, for ranked
 * columns, the same {@link KeyRanks}): nulls first, then the longs as signed numbers. Sorting
 * ({@link KeySort}), de-duplication and joins all work on these arrays, never on boxed values.
 */
final class CellKeys {
  /** One key column: its longs (at least one per row) and, when any row is null, which. */
  record Column(long[] first, long[] second, boolean[] nulls) {}

  private final Column[] columns;
  private final int rows;

  private CellKeys(Column[] columns, int rows) {
    this.columns = columns;
    this.rows = rows;
  }

  /**
   * Encodes the key columns {@code vectors} of {@code rows} rows; {@code ranks[c]} is the ranking
   * shared by all datasets for a ranked column {@code c} (null for the others). Ranked columns hold
   * value ids until {@link #resolveRanks} is called, after every dataset of the partition was
   * encoded.
   */
  static CellKeys encode(List<KeyKind> kinds, List<TypedVector> vectors, int rows, KeyRanks[] ranks) {
    return encode(kinds, vectors, rows, ranks, null);
  }

  /**
   * As {@link #encode(List, List, int, KeyRanks[])}, but the keys of the rows {@code skip} marks
   * (null: none) are left 0 where encoding costs: rows that take no part in de-duplication.
   */
  static CellKeys encode(List<KeyKind> kinds, List<TypedVector> vectors, int rows, KeyRanks[] ranks, boolean[] skip) {
    Column[] columns = new Column[kinds.size()];
    for (int c = 0; c < columns.length; c++) {
      columns[c] = column(kinds.get(c), vectors.get(c), rows, ranks[c], skip);
    }
    return new CellKeys(columns, rows);
  }

  /** Keys that are one long each, without nulls ({@link KeyPacking}). */
  static CellKeys single(long[] words, int rows) {
    return new CellKeys(new Column[] {new Column(words, null, null)}, rows);
  }

  /** Turns the value ids of ranked columns into ranks. */
  void resolveRanks(List<KeyKind> kinds, KeyRanks[] ranks) {
    for (int c = 0; c < columns.length; c++) {
      if (kinds.get(c) == KeyKind.RANKED) {
        long[] words = columns[c].first();
        for (int row = 0; row < rows; row++) {
          words[row] = ranks[c].rank((int) words[row]);
        }
      }
    }
  }

  /** The keys of some of the columns, in the given order (sharing the arrays). */
  CellKeys select(int[] keyColumns) {
    Column[] selected = new Column[keyColumns.length];
    for (int i = 0; i < keyColumns.length; i++) {
      selected[i] = columns[keyColumns[i]];
    }
    return new CellKeys(selected, rows);
  }

  /**
   * The longs of the keys when a key is one long (one column, not a timestamp, no nulls), which
   * the sort, de-duplication and merge then compare directly; else null.
   */
  long[] singleWords() {
    return columns.length == 1 && columns[0].second() == null && columns[0].nulls() == null
        ? columns[0].first() : null;
  }

  int rows() {
    return rows;
  }

  int columnCount() {
    return columns.length;
  }

  Column column(int c) {
    return columns[c];
  }

  /** Compares the key of row {@code row} with that of row {@code otherRow} of {@code other}. */
  int compare(int row, CellKeys other, int otherRow) {
    for (int c = 0; c < columns.length; c++) {
      Column a = columns[c];
      Column b = other.columns[c];
      boolean aNull = a.nulls() != null && a.nulls()[row];
      boolean bNull = b.nulls() != null && b.nulls()[otherRow];
      if (aNull || bNull) {
        if (aNull != bNull) {
          return aNull ? -1 : 1;
        }
        continue;
      }
      int cmp = Long.compare(a.first()[row], b.first()[otherRow]);
      if (cmp == 0 && a.second() != null) {
        cmp = Long.compare(a.second()[row], b.second()[otherRow]);
      }
      if (cmp != 0) {
        return cmp;
      }
    }
    return 0;
  }

  private static Column column(KeyKind kind, TypedVector vector, int rows, KeyRanks ranks, boolean[] skip) {
    if (vector instanceof LongVector longs && !longs.hasNulls() && kind != KeyKind.TIMESTAMP && kind != KeyKind.UNSIGNED
        && fast(kind, longs.type())) {
      // the vector's longs are the keys as they are: share them (keys are never written)
      return new Column(longs.values(), null, null);
    }
    long[] first = new long[rows];
    long[] second = kind == KeyKind.TIMESTAMP ? new long[rows] : null;
    boolean[] nulls = null;
    if (vector instanceof LongVector longs && fast(kind, longs.type())) {
      encodeLongs(kind, longs, first, second);
    } else if (kind == KeyKind.RANKED && vector instanceof ObjectVector objects && objects.dictionary() != null) {
      // each entry is given its id once; a row takes its entry's (a null row is marked below)
      Object[] entries = objects.dictionary();
      int[] entryIds = new int[entries.length];
      Arrays.fill(entryIds, -1);
      int[] ids = objects.dictionaryIds();
      for (int row = 0; row < rows; row++) {
        int id = ids[row];
        if (id >= 0 && (skip == null || !skip[row])) {
          if (entryIds[id] < 0) {
            entryIds[id] = ranks.id(entries[id]);
          }
          first[row] = entryIds[id];
        }
      }
    } else if (vector instanceof DoubleVector doubles && kind == KeyKind.DOUBLE) {
      double[] values = doubles.values();
      for (int row = 0; row < rows; row++) {
        first[row] = orderedBits(values[row]);
      }
    } else {
      for (int row = 0; row < rows; row++) {
        Object value = skip != null && skip[row] ? null : vector.get(row);
        if (value != null) {
          encodeValue(kind, value, row, first, second, ranks);
        }
      }
    }
    for (int row = 0; row < rows; row++) {
      if (vector.isNull(row)) {
        if (nulls == null) {
          nulls = new boolean[rows];
        }
        nulls[row] = true;
        first[row] = 0;
        if (second != null) {
          second[row] = 0;
        }
      }
    }
    return new Column(first, second, nulls);
  }

  /** Whether the longs of a vector of {@code type} are read directly for a key of {@code kind}. */
  private static boolean fast(KeyKind kind, LongType type) {
    return switch (kind) {
      case LONG -> type.kind() == LongType.Kind.INTEGER;
      case UNSIGNED -> type.kind() == LongType.Kind.INTEGER || type.kind() == LongType.Kind.UNSIGNED_64;
      case DATE -> type.kind() == LongType.Kind.DATE;
      case TIME -> type.kind() == LongType.Kind.TIME;
      case TIMESTAMP -> type.kind() == LongType.Kind.TIMESTAMP;
      default -> false;
    };
  }

  private static void encodeLongs(KeyKind kind, LongVector vector, long[] first, long[] second) {
    long[] values = vector.values();
    int rows = first.length;
    switch (kind) {
      case UNSIGNED -> {
        for (int row = 0; row < rows; row++) {
          first[row] = values[row] ^ Long.MIN_VALUE;
        }
      }
      case TIMESTAMP -> {
        long nanosPerUnit = vector.type().nanosPerUnit();
        if (nanosPerUnit == 1_000) {
          // microseconds, the usual unit: a constant divisor, which the compiler turns into a multiplication
          for (int row = 0; row < rows; row++) {
            first[row] = Math.floorDiv(values[row], 1_000_000L);
            second[row] = Math.floorMod(values[row], 1_000_000L) * 1_000;
          }
          return;
        }
        long unitsPerSecond = 1_000_000_000L / nanosPerUnit;
        for (int row = 0; row < rows; row++) {
          first[row] = Math.floorDiv(values[row], unitsPerSecond);
          second[row] = Math.floorMod(values[row], unitsPerSecond) * nanosPerUnit;
        }
      }
      default -> System.arraycopy(values, 0, first, 0, rows);
    }
  }

  private static void encodeValue(KeyKind kind, Object value, int row, long[] first, long[] second, KeyRanks ranks) {
    switch (kind) {
      case LONG -> first[row] = (Long) value;
      case UNSIGNED -> first[row] = (Long) value ^ Long.MIN_VALUE;
      case DOUBLE -> first[row] = orderedBits((Double) value);
      case BOOL -> first[row] = (Boolean) value ? 1 : 0;
      case DATE -> first[row] = ((LocalDate) value).toEpochDay();
      case TIME -> first[row] = ((LocalTime) value).toNanoOfDay();
      case TIMESTAMP -> {
        if (value instanceof Instant instant) {
          first[row] = instant.getEpochSecond();
          second[row] = instant.getNano();
        } else {
          LocalDateTime timestamp = (LocalDateTime) value;
          first[row] = timestamp.toEpochSecond(ZoneOffset.UTC);
          second[row] = timestamp.getNano();
        }
      }
      case RANKED -> first[row] = ranks.id(value);
      default -> throw new IllegalStateException("Unexpected key kind " + kind);
    }
  }

  /** A long that orders like the double: -0.0 as 0.0, NaN above +inf (as the row keys do). */
  static long orderedBits(double value) {
    long bits = Double.doubleToLongBits(value == 0.0 ? 0.0 : value);
    return bits ^ ((bits >> 63) & Long.MAX_VALUE);
  }
}
