package io.ktk.flink.state.commit;

import io.ktk.flink.state.metadata.IndexValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The secondary indices of a {@link DatasetState}: per index column, per value, the labels of the
 * files holding it. The label sets of a column are built when they are first asked for ({@link
 * #built}), from the changes queued since, in order: a log replayed entry by entry does not build
 * the indices no reader looks at (a query looks at those of the columns its conditions name). At
 * most {@link #MAX_PENDING} changes wait per column, so a state whose indices nobody reads (a
 * writer's) holds a bounded number of them. Owned by one thread at a time, like its state.
 */
final class IndexLabels {
  private static final int MAX_PENDING = 256;

  /** An entry's change to one index: labels added per value, or labels removed from every value. */
  private record Change(Map<IndexValue, List<String>> added, Set<String> removed) {}

  /** Per column, the label sets without the changes still pending. */
  private final Map<String, Map<IndexValue, TreeSet<String>>> built = new TreeMap<>();
  private final Map<String, List<Change>> pending = new HashMap<>();

  /** The index columns, in name order. */
  Set<String> columns() {
    return built.keySet();
  }

  /** Makes {@code column} an index column (empty until values are added). */
  void declare(String column) {
    built.computeIfAbsent(column, c -> new HashMap<>());
  }

  /** Queues the labels an entry adds to the index of {@code column} (copied: they may be the writer's). */
  void add(String column, Map<IndexValue, List<String>> values) {
    declare(column);
    Map<IndexValue, List<String>> added = new HashMap<>();
    values.forEach((value, labels) -> added.put(value, List.copyOf(labels)));
    queue(column, new Change(added, null));
  }

  /** Queues the removal of {@code labels} from every index. */
  void remove(Set<String> labels) {
    Change removal = new Change(null, Set.copyOf(labels));
    built.keySet().forEach(column -> queue(column, removal));
  }

  private void queue(String column, Change change) {
    List<Change> changes = pending.computeIfAbsent(column, c -> new ArrayList<>());
    changes.add(change);
    if (changes.size() > MAX_PENDING) {
      built(column);
    }
  }

  /** The label sets of {@code column} with every change applied, or null when it has no index. */
  Map<IndexValue, TreeSet<String>> built(String column) {
    Map<IndexValue, TreeSet<String>> index = built.get(column);
    List<Change> changes = pending.remove(column);
    if (index != null && changes != null) {
      for (Change change : changes) {
        if (change.added() != null) {
          change.added().forEach((value, labels) -> index.computeIfAbsent(value, v -> new TreeSet<>()).addAll(labels));
        } else {
          index.values().removeIf(labels -> {
            labels.removeAll(change.removed());
            return labels.isEmpty();
          });
        }
      }
    }
    return index;
  }

  /** Sets the label sets of {@code column} as a snapshot holds them. */
  void restore(String column, Map<IndexValue, List<String>> values) {
    Map<IndexValue, TreeSet<String>> index = new HashMap<>();
    values.forEach((value, labels) -> index.put(value, new TreeSet<>(labels)));
    built.put(column, index);
    pending.remove(column);
  }

  /** A deep copy: the queued changes are immutable and shared, the label sets copied. */
  IndexLabels copy() {
    IndexLabels copy = new IndexLabels();
    built.forEach((column, index) -> {
      Map<IndexValue, TreeSet<String>> indexCopy = new HashMap<>();
      index.forEach((value, labels) -> indexCopy.put(value, new TreeSet<>(labels)));
      copy.built.put(column, indexCopy);
    });
    pending.forEach((column, changes) -> copy.pending.put(column, new ArrayList<>(changes)));
    return copy;
  }
}
