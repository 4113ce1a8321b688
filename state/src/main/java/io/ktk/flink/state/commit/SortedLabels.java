package io.ktk.flink.state.commit;

import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The labels of the files holding one index value: an immutable set in label order, held as one
 * sorted array. An index holds a label per file and value (hundreds of thousands of them), which a
 * tree set would hold as as many tree nodes; a snapshot's lists, already sorted, become one array
 * each, and a change merges into a new array.
 */
final class SortedLabels extends AbstractSet<String> {
  private static final SortedLabels EMPTY = new SortedLabels(new String[0]);

  private final String[] labels;

  private SortedLabels(String[] labels) {
    this.labels = labels;
  }

  /** The distinct labels of {@code labels}, in any order, with or without repetitions. */
  static SortedLabels of(Collection<String> labels) {
    String[] sorted = labels.toArray(new String[0]);
    if (!strictlyIncreasing(sorted)) {
      // TimSort takes a sorted run followed by a few added labels in about linear time
      Arrays.sort(sorted);
      sorted = distinct(sorted);
    }
    return sorted.length == 0 ? EMPTY : new SortedLabels(sorted);
  }

  /** Whether any label of {@code removed} is one of these, looking through the smaller side. */
  boolean holdsAny(Set<String> removed) {
    if (removed.size() < labels.length) {
      for (String label : removed) {
        if (contains(label)) {
          return true;
        }
      }
      return false;
    }
    for (String label : labels) {
      if (removed.contains(label)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public boolean contains(Object label) {
    return label instanceof String && Arrays.binarySearch(labels, label) >= 0;
  }

  @Override
  public int size() {
    return labels.length;
  }

  @Override
  public Iterator<String> iterator() {
    return new Iterator<>() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < labels.length;
      }

      @Override
      public String next() {
        if (next >= labels.length) {
          throw new NoSuchElementException();
        }
        return labels[next++];
      }
    };
  }

  @Override
  public Object[] toArray() {
    return labels.clone();
  }

  private static boolean strictlyIncreasing(String[] labels) {
    for (int i = 1; i < labels.length; i++) {
      if (labels[i - 1].compareTo(labels[i]) >= 0) {
        return false;
      }
    }
    return true;
  }

  private static String[] distinct(String[] sorted) {
    int count = 0;
    for (String label : sorted) {
      if (count == 0 || !label.equals(sorted[count - 1])) {
        sorted[count++] = label;
      }
    }
    return count == sorted.length ? sorted : Arrays.copyOf(sorted, count);
  }
}
