package io.ktk.flink.state.commit;

import io.ktk.flink.state.metadata.IndexValue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
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
 *
 * <p>A label set, once handed out, never changes: a change replaces the sets it touches with
 * changed copies (copy on write). So copies of the indices share the sets, and a label set that is
 * the same instance as before holds the same labels, which lets a publisher find the values whose
 * labels changed without looking at the others' labels ({@code IndexFileWriter}).
 */
final class IndexLabels {
  private static final int MAX_PENDING = 256;

  /** An entry's change to one index: labels added per value, or labels removed from every value. */
  private record Change(Map<IndexValue, List<String>> added, Set<String> removed) {}

  /** Per column, the label sets (unmodifiable views, never changed) without the changes still pending. */
  private final Map<String, Map<IndexValue, NavigableSet<String>>> built = new TreeMap<>();
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

  /**
   * The label sets of {@code column} with every change applied, or null when it has no index. The
   * sets are unmodifiable and never change; a set of a value whose labels changed is a new one.
   */
  Map<IndexValue, NavigableSet<String>> built(String column) {
    Map<IndexValue, NavigableSet<String>> index = built.get(column);
    List<Change> changes = pending.remove(column);
    if (index == null || changes == null) {
      return index;
    }
    // The sets this call copied: changed in place until the call ends, then handed out unmodifiable.
    Map<IndexValue, TreeSet<String>> copied = new HashMap<>();
    for (Change change : changes) {
      if (change.added() != null) {
        change.added().forEach((value, labels) -> writable(index, copied, value).addAll(labels));
      } else {
        for (Map.Entry<IndexValue, NavigableSet<String>> entry : index.entrySet()) {
          if (!copied.containsKey(entry.getKey()) && holdsAny(entry.getValue(), change.removed())) {
            writable(index, copied, entry.getKey());
          }
        }
        copied.values().forEach(labels -> labels.removeAll(change.removed()));
      }
    }
    copied.forEach((value, labels) -> {
      if (labels.isEmpty()) {
        index.remove(value);
      } else {
        index.put(value, Collections.unmodifiableNavigableSet(labels));
      }
    });
    return index;
  }

  /** The copy of {@code value}'s set this call changes, made on first use. */
  private static TreeSet<String> writable(
      Map<IndexValue, NavigableSet<String>> index, Map<IndexValue, TreeSet<String>> copied, IndexValue value) {
    return copied.computeIfAbsent(value, v -> {
      NavigableSet<String> current = index.get(v);
      return current == null ? new TreeSet<>() : new TreeSet<>(current);
    });
  }

  private static boolean holdsAny(Set<String> labels, Set<String> removed) {
    Set<String> smaller = labels.size() < removed.size() ? labels : removed;
    Set<String> larger = smaller == labels ? removed : labels;
    for (String label : smaller) {
      if (larger.contains(label)) {
        return true;
      }
    }
    return false;
  }

  /** Sets the label sets of {@code column} as a snapshot holds them. */
  void restore(String column, Map<IndexValue, List<String>> values) {
    Map<IndexValue, NavigableSet<String>> index = new HashMap<>();
    values.forEach((value, labels) -> index.put(value, Collections.unmodifiableNavigableSet(new TreeSet<>(labels))));
    built.put(column, index);
    pending.remove(column);
  }

  /** A copy: the label sets and the queued changes never change, so both are shared. */
  IndexLabels copy() {
    IndexLabels copy = new IndexLabels();
    built.forEach((column, index) -> copy.built.put(column, new HashMap<>(index)));
    pending.forEach((column, changes) -> copy.pending.put(column, new ArrayList<>(changes)));
    return copy;
  }
}
