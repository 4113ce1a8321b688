package io.ktk.flink.sink;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * Changelogs like a database's CDC stream, for the tests of datasets with a primary key: over a
 * set of keys in several partitions, an insert for a key that does not exist, then updates (a
 * {@code -U} with the old row and a {@code +U} with the new one) and deletes ({@code -D} with the
 * old row), re-inserts of deleted keys, and bursts of changes to a few hot keys. A changelog is
 * computed once, from a seed, and registered under a name, so that sources deserialized in tasks
 * (and restarted ones) emit record {@code i} as it is; {@link #state} is the reference: the table
 * after the first {@code n} records.
 *
 * <p>Rows: {@code k BIGINT NOT NULL} (the key, with {@code p}), {@code p STRING NOT NULL} ({@code
 * "p" + k % partitions}, the partition), {@code v BIGINT}, {@code s STRING}, {@code seq BIGINT}
 * (the record's position in the changelog).
 */
final class Changelogs {
  static final RowType ROW_TYPE = (RowType) DataTypes.ROW(
      DataTypes.FIELD("k", DataTypes.BIGINT().notNull()),
      DataTypes.FIELD("p", DataTypes.STRING().notNull()),
      DataTypes.FIELD("v", DataTypes.BIGINT()),
      DataTypes.FIELD("s", DataTypes.STRING()),
      DataTypes.FIELD("seq", DataTypes.BIGINT())).getLogicalType();
  static final TypeInformation<RowData> TYPE_INFO = InternalTypeInfo.of(ROW_TYPE);

  private static final Map<String, List<GenericRowData>> REGISTERED = new ConcurrentHashMap<>();

  /** The columns of the rows, in order. */
  static final List<String> COLUMNS = List.of("k", "p", "v", "s", "seq");

  /** A row of the table: the values of one key. */
  record Row(long k, String p, Long v, String s, Long seq) {
    List<Object> values() {
      return java.util.Arrays.asList(k, p, v, s, seq);
    }
  }

  private Changelogs() {}

  /**
   * Computes a changelog of {@code records} records over {@code keys} keys in {@code partitions}
   * partitions and registers it as {@code name}.
   */
  static List<GenericRowData> register(String name, long seed, int keys, int partitions, int records) {
    Random random = new Random(seed);
    int hotKeys = 50;
    Map<Long, Row> live = new HashMap<>();
    List<GenericRowData> changes = new ArrayList<>(records);
    while (changes.size() < records) {
      boolean burst = random.nextInt(200) == 0;
      long hot = random.nextInt(hotKeys) * (keys / hotKeys);
      int repeat = burst ? 20 + random.nextInt(40) : 1;
      for (int r = 0; r < repeat && changes.size() < records; r++) {
        long k = burst ? hot : random.nextInt(10) == 0 ? random.nextInt(hotKeys) * (keys / hotKeys)
            : random.nextInt(keys);
        Row old = live.get(k);
        long seq = changes.size();
        if (old == null) {
          Row row = new Row(k, "p" + k % partitions, random.nextLong(1_000_000), "s" + random.nextInt(1000), seq);
          changes.add(row(RowKind.INSERT, row));
          live.put(k, row);
        } else if (random.nextInt(4) == 0) {
          changes.add(row(RowKind.DELETE, withSeq(old, seq)));
          live.remove(k);
        } else {
          Row row = new Row(k, old.p(), random.nextInt(5) == 0 ? null : random.nextLong(1_000_000),
              "s" + random.nextInt(1000), seq + 1);
          changes.add(row(RowKind.UPDATE_BEFORE, withSeq(old, seq)));
          if (changes.size() < records) {
            changes.add(row(RowKind.UPDATE_AFTER, row));
            live.put(k, row);
          }
        }
      }
    }
    REGISTERED.put(name, List.copyOf(changes));
    return REGISTERED.get(name);
  }

  /** The registered changelog {@code name}. */
  static List<GenericRowData> changelog(String name) {
    return REGISTERED.get(name);
  }

  /**
   * The table after the first {@code n} records of a changelog, by key: {@code +I} and {@code +U}
   * put the row of their key, {@code -D} removes it, {@code -U} changes nothing.
   */
  static Map<Long, Row> state(List<GenericRowData> changes, long n) {
    Map<Long, Row> table = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      GenericRowData change = changes.get(i);
      long k = change.getLong(0);
      switch (change.getRowKind()) {
        case INSERT, UPDATE_AFTER -> table.put(k, of(change));
        case DELETE -> table.remove(k);
        case UPDATE_BEFORE -> { }
      }
    }
    return table;
  }

  /** A table by key ({@code k}, {@code p}) as {@link ChangeLogReader} reads it. */
  static Map<List<Object>, List<Object>> byKey(Map<Long, Row> table) {
    Map<List<Object>, List<Object>> rows = new HashMap<>();
    table.values().forEach(row -> rows.put(List.of(row.k(), row.p()), row.values()));
    return rows;
  }

  /**
   * Asserts that {@code actual} is the table {@code expected}, reporting counts and a few
   * differences instead of both tables.
   */
  static <K, V> void assertTable(String what, Map<K, V> actual, Map<K, V> expected) {
    if (actual.equals(expected)) {
      return;
    }
    List<String> differences = new ArrayList<>();
    for (Map.Entry<K, V> row : expected.entrySet()) {
      V found = actual.get(row.getKey());
      if (!row.getValue().equals(found) && differences.size() < 5) {
        differences.add("key " + row.getKey() + ": " + found + " instead of " + row.getValue());
      }
    }
    for (Map.Entry<K, V> row : actual.entrySet()) {
      if (!expected.containsKey(row.getKey()) && differences.size() < 10) {
        differences.add("key " + row.getKey() + ": " + row.getValue() + ", which the table does not have");
      }
    }
    throw new AssertionError(what + ": " + actual.size() + " keys, " + expected.size() + " expected; " + differences);
  }

  static Row of(RowData row) {
    return new Row(row.getLong(0), row.getString(1).toString(), row.isNullAt(2) ? null : row.getLong(2),
        row.isNullAt(3) ? null : row.getString(3).toString(), row.isNullAt(4) ? null : row.getLong(4));
  }

  private static Row withSeq(Row row, long seq) {
    return new Row(row.k(), row.p(), row.v(), row.s(), seq);
  }

  private static GenericRowData row(RowKind kind, Row row) {
    GenericRowData data = new GenericRowData(kind, 5);
    data.setField(0, row.k());
    data.setField(1, StringData.fromString(row.p()));
    data.setField(2, row.v());
    data.setField(3, row.s() == null ? null : StringData.fromString(row.s()));
    data.setField(4, row.seq());
    return data;
  }

  /**
   * Per changelog name and checkpoint id, how many of its records came before the checkpoint's
   * barrier ({@link Prefixes}): a version committed by that checkpoint holds the table after them.
   */
  private static final Map<String, Map<Long, Long>> PREFIXES = new ConcurrentHashMap<>();

  /** How many records of changelog {@code name} precede the barrier of {@code checkpointId}, or null. */
  static Long prefix(String name, long checkpointId) {
    return PREFIXES.getOrDefault(name, Map.of()).get(checkpointId);
  }

  /**
   * Passes records on and notes, at each checkpoint, how many records of the changelog came before
   * its barrier: the {@code seq} of the last one passed, plus one. Runs at parallelism 1, chained to
   * the source, so that it sees the records in the changelog's order.
   */
  static final class Prefixes extends org.apache.flink.api.common.functions.RichMapFunction<RowData, RowData>
      implements org.apache.flink.streaming.api.checkpoint.CheckpointedFunction {
    private static final long serialVersionUID = 1L;
    private final String name;
    private final int seqPosition;
    private long next;
    private transient org.apache.flink.api.common.state.ListState<Long> state;

    Prefixes(String name) {
      this(name, 4);
    }

    /** Over records whose field {@code seqPosition} numbers them from 0. */
    Prefixes(String name, int seqPosition) {
      this.name = name;
      this.seqPosition = seqPosition;
    }

    @Override
    public RowData map(RowData row) {
      next = row.getLong(seqPosition) + 1;
      return row;
    }

    @Override
    public void snapshotState(org.apache.flink.runtime.state.FunctionSnapshotContext context) throws Exception {
      PREFIXES.computeIfAbsent(name, n -> new ConcurrentHashMap<>()).put(context.getCheckpointId(), next);
      state.update(List.of(next));
    }

    @Override
    public void initializeState(org.apache.flink.runtime.state.FunctionInitializationContext context)
        throws Exception {
      state = context.getOperatorStateStore().getListState(
          new org.apache.flink.api.common.state.ListStateDescriptor<>("next", Long.class));
      for (Long restored : state.get()) {
        next = restored;
      }
    }
  }

  /** Emits record {@code i} of the registered changelog {@code name} (a copy: operators may reuse rows). */
  static final class Records implements GeneratorFunction<Long, RowData> {
    private static final long serialVersionUID = 1L;
    private final String name;

    Records(String name) {
      this.name = name;
    }

    @Override
    public RowData map(Long index) {
      GenericRowData change = REGISTERED.get(name).get(Math.toIntExact(index));
      GenericRowData copy = new GenericRowData(change.getRowKind(), change.getArity());
      for (int i = 0; i < change.getArity(); i++) {
        copy.setField(i, change.getField(i));
      }
      return copy;
    }
  }
}
