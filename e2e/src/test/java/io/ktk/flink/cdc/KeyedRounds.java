package io.ktk.flink.cdc;

import io.ktk.flink.sink.KartothekSink;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;

/**
 * A table with primary key {@code (k, p)} changed in rounds, like a database's CDC stream: each
 * round inserts keys that do not exist (new or deleted before), updates existing ones ({@code -U}
 * with the old row, {@code +U} with the new), deletes some ({@code -D} with the old row), with a
 * tenth of the changes on a few hot keys. A round is written into dataset {@code cdc} by the
 * changelog sink in one job. The test's reference is kept here: the table after each round, and
 * the events an upsert changelog of the round must hold.
 *
 * <p>Rows: {@code k BIGINT NOT NULL}, {@code p STRING NOT NULL} ({@code "p" + k % partitions}, the
 * partition), {@code v BIGINT} (null now and then), {@code s STRING}.
 */
final class KeyedRounds {
  static final RowType ROW_TYPE = (RowType) DataTypes.ROW(
      DataTypes.FIELD("k", DataTypes.BIGINT().notNull()),
      DataTypes.FIELD("p", DataTypes.STRING().notNull()),
      DataTypes.FIELD("v", DataTypes.BIGINT()),
      DataTypes.FIELD("s", DataTypes.STRING())).getLogicalType();
  static final String DATASET = "cdc";

  private final Random random;
  private final int keys;
  private final int partitions;
  /** The table: key {@code [k, p]} to row {@code [k, p, v, s]}. */
  private final Map<List<Object>, List<Object>> table = new HashMap<>();
  private int rounds;

  KeyedRounds(long seed, int keys, int partitions) {
    this.random = new Random(seed);
    this.keys = keys;
    this.partitions = partitions;
  }

  /** A change of the table, as the sink takes it. */
  record Change(RowKind kind, List<Object> row) {
    RowData toRowData() {
      return GenericRowData.ofKind(kind, row.get(0), StringData.fromString((String) row.get(1)), row.get(2),
          row.get(3) == null ? null : StringData.fromString((String) row.get(3)));
    }
  }

  /** The next round: {@code changes} changes (an update counts once), applied to the reference. */
  List<Change> next(int changes) {
    rounds++;
    List<Change> round = new ArrayList<>();
    for (int i = 0; i < changes; i++) {
      long k = random.nextInt(10) == 0 ? random.nextInt(20) * (keys / 20) : random.nextInt(keys);
      List<Object> key = List.of(k, "p" + k % partitions);
      List<Object> old = table.get(key);
      if (old == null) {
        put(round, RowKind.INSERT, row(k));
      } else if (random.nextInt(4) == 0) {
        round.add(new Change(RowKind.DELETE, old));
        table.remove(key);
      } else {
        round.add(new Change(RowKind.UPDATE_BEFORE, old));
        put(round, RowKind.UPDATE_AFTER, row(k));
      }
    }
    return round;
  }

  private List<Object> row(long k) {
    Long v = random.nextInt(5) == 0 ? null : random.nextLong(1_000_000);
    return Arrays.asList(k, "p" + k % partitions, v, "r" + rounds + "-" + random.nextInt(1000));
  }

  private void put(List<Change> round, RowKind kind, List<Object> row) {
    round.add(new Change(kind, row));
    table.put(row.subList(0, 2), row);
  }

  /** The table after the rounds so far, by key {@code [k, p]}. */
  Map<List<Object>, List<Object>> table() {
    return Map.copyOf(table);
  }

  /**
   * What an upsert changelog serves for {@code round} when it is committed as one version after the
   * rounds before: per key the round changed (by a row that is not {@code -U}), its row now as
   * {@code +U}, or a {@code -D} holding only the key's columns when it has none.
   */
  List<Row> events(List<Change> round) {
    Set<List<Object>> touched = new LinkedHashSet<>();
    round.stream().filter(change -> change.kind() != RowKind.UPDATE_BEFORE)
        .forEach(change -> touched.add(change.row().subList(0, 2)));
    List<Row> events = new ArrayList<>();
    for (List<Object> key : touched) {
      List<Object> row = table.get(key);
      events.add(row == null ? Row.ofKind(RowKind.DELETE, key.get(0), key.get(1), null, null)
          : Row.ofKind(RowKind.UPDATE_AFTER, row.toArray()));
    }
    return events;
  }

  /** The table as the {@code +I} rows of a changelog's start. */
  List<Row> inserts() {
    return table.values().stream().map(row -> Row.ofKind(RowKind.INSERT, row.toArray())).toList();
  }

  /** Writes {@code round} into the dataset with the changelog sink, in one job (one version, maybe a fold after it). */
  static void commit(String url, List<Change> round) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(Map.of(
        "execution.runtime-mode", "STREAMING", "parallelism.default", "2")));
    List<RowData> rows = round.stream().map(Change::toRowData).toList();
    KartothekSink.forRowData(ROW_TYPE).store(url).dataset(DATASET).partitionBy("p").primaryKey("k", "p").build()
        .addTo(env.fromData(rows, InternalTypeInfo.of(ROW_TYPE)).setParallelism(1));
    env.execute("round of changes");
  }

  /** Applies an upsert changelog's row to a copy of the table, by key {@code [k, p]}. */
  static void apply(Map<List<Object>, List<Object>> copy, Row event) {
    List<Object> row = Arrays.asList(event.getField(0), event.getField(1), event.getField(2), event.getField(3));
    switch (event.getKind()) {
      case INSERT, UPDATE_AFTER -> copy.put(row.subList(0, 2), row);
      case DELETE -> copy.remove(row.subList(0, 2));
      case UPDATE_BEFORE -> throw new AssertionError("an upsert changelog has no -U: " + event);
    }
  }
}
