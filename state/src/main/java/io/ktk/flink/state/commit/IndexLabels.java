package io.ktk.flink.state.commit;

import io.ktk.flink.state.metadata.IndexValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

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
  private final Map<String, Map<IndexValue, SortedLabels>> built = new TreeMap<>();
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
  Map<IndexValue, SortedLabels> built(String column) {
    Map<IndexValue, SortedLabels> index = built.get(column);
    List<Change> changes = pending.remove(column);
    if (index == null || changes == null) {
      return index;
    }
    // The changes folded, keeping their order: a label added by change k stays unless a later
    // change removed it; a label the index held stays unless any change removed it.
    Map<String, Integer> removedAt = new HashMap<>();
    Map<IndexValue, Map<String, Integer>> addedAt = new HashMap<>();
    for (int k = 0; k < changes.size(); k++) {
      Change change = changes.get(k);
      int position = k;
      if (change.added() != null) {
        change.added().forEach((value, labels) -> {
          Map<String, Integer> added = addedAt.computeIfAbsent(value, v -> new HashMap<>());
          labels.forEach(label -> added.put(label, position));
        });
      } else {
        change.removed().forEach(label -> removedAt.put(label, position));
      }
    }
    List<IndexValue> changed = new ArrayList<>(addedAt.keySet());
    if (!removedAt.isEmpty()) {
      index.forEach((value, labels) -> {
        if (!addedAt.containsKey(value) && labels.holdsAny(removedAt.keySet())) {
          changed.add(value);
        }
      });
    }
    for (IndexValue value : changed) {
      List<String> labels = new ArrayList<>();
      SortedLabels held = index.get(value);
      if (held != null) {
        held.forEach(label -> {
          if (!removedAt.containsKey(label)) {
            labels.add(label);
          }
        });
      }
      addedAt.getOrDefault(value, Map.of()).forEach((label, position) -> {
        if (removedAt.getOrDefault(label, -1) < position) {
          labels.add(label);
        }
      });
      if (labels.isEmpty()) {
        index.remove(value);
      } else {
        index.put(value, SortedLabels.of(labels));
      }
    }
    return index;
  }

  /** Sets the label sets of {@code column} as a snapshot holds them (sorted there: one array copy each). */
  void restore(String column, Map<IndexValue, List<String>> values) {
    Map<IndexValue, SortedLabels> index = new HashMap<>();
    values.forEach((value, labels) -> index.put(value, SortedLabels.of(labels)));
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
