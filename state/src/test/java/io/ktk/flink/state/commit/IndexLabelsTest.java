package io.ktk.flink.state.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.metadata.IndexValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Index label sets built when read give what applying every change at once gives: seeded random
 * runs of additions and removals over two columns, read at random moments (and some columns never),
 * with copies taken half-way that go on on their own, past the bound of queued changes. A label set
 * handed out never changes (a change makes a new one), which publishers rely on.
 */
class IndexLabelsTest {
  private static final long SEED = 20_261_126L;

  /** The model: every change applied as it comes. */
  private static final class Eager {
    final Map<String, Map<IndexValue, TreeSet<String>>> columns = new HashMap<>();

    void add(String column, Map<IndexValue, List<String>> values) {
      Map<IndexValue, TreeSet<String>> index = columns.computeIfAbsent(column, c -> new HashMap<>());
      values.forEach((value, labels) -> index.computeIfAbsent(value, v -> new TreeSet<>()).addAll(labels));
    }

    void remove(Set<String> labels) {
      columns.values().forEach(index -> index.values().removeIf(set -> {
        set.removeAll(labels);
        return set.isEmpty();
      }));
    }

    Eager copy() {
      Eager copy = new Eager();
      columns.forEach((column, index) -> {
        Map<IndexValue, TreeSet<String>> indexCopy = new HashMap<>();
        index.forEach((value, labels) -> indexCopy.put(value, new TreeSet<>(labels)));
        copy.columns.put(column, indexCopy);
      });
      return copy;
    }
  }

  @Test
  void aLabelSetHandedOutNeverChangesAndStaysTheSameWhileItsLabelsDo() {
    IndexLabels labels = new IndexLabels();
    IndexValue one = IndexValue.of(1L);
    IndexValue two = IndexValue.of(2L);
    IndexValue three = IndexValue.of(3L);
    labels.add("c", Map.of(one, List.of("p=1/a"), two, List.of("p=1/b"), three, List.of("p=1/c")));
    Map<IndexValue, SortedLabels> before = new HashMap<>(labels.built("c"));
    IndexLabels copy = labels.copy();

    labels.add("c", Map.of(one, List.of("p=2/d")));
    labels.remove(Set.of("p=1/b"));
    Map<IndexValue, SortedLabels> after = labels.built("c");

    assertThat(before.get(one)).containsExactly("p=1/a");
    assertThat(before.get(two)).containsExactly("p=1/b");
    assertThat(after.get(one)).containsExactly("p=1/a", "p=2/d");
    assertThat(after).doesNotContainKey(two);
    assertThat(after.get(three)).isSameAs(before.get(three));
    assertThat(copy.built("c")).isEqualTo(before);
    copy.add("c", Map.of(three, List.of("p=3/e")));
    assertThat(copy.built("c").get(three)).containsExactly("p=1/c", "p=3/e");
    assertThat(labels.built("c").get(three)).containsExactly("p=1/c");
    assertThatThrownBy(() -> after.get(one).add("p=9/z")).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void labelsBuiltWhenReadEqualThoseAppliedAtOnce() {
    Random random = new Random(SEED);
    for (int run = 0; run < 20; run++) {
      IndexLabels lazy = new IndexLabels();
      Eager eager = new Eager();
      IndexLabels lazyCopy = null;
      Eager eagerCopy = null;
      List<String> labels = new ArrayList<>();
      for (int step = 0; step < 700; step++) {
        String column = random.nextBoolean() ? "a" : "b";
        if (random.nextInt(5) > 0 || labels.isEmpty()) {
          Map<IndexValue, List<String>> values = new HashMap<>();
          String label = "p=1/f" + step;
          labels.add(label);
          for (int v = 0; v < 1 + random.nextInt(4); v++) {
            values.put(IndexValue.of((long) random.nextInt(10)), List.of(label));
          }
          lazy.add(column, values);
          eager.add(column, values);
        } else {
          Set<String> removed = new HashSet<>();
          for (int i = 0; i < 1 + random.nextInt(3); i++) {
            removed.add(labels.get(random.nextInt(labels.size())));
          }
          lazy.remove(removed);
          eager.remove(removed);
        }
        if (random.nextInt(50) == 0) {
          // "b" is read now and then; "a" only at the end, after more changes than are kept queued
          assertThat(lazy.built("b")).as("run %d step %d", run, step).isEqualTo(eager.columns.get("b"));
        }
        if (step == 350) {
          lazyCopy = lazy.copy();
          eagerCopy = eager.copy();
        }
        if (step > 350) {
          Map<IndexValue, List<String>> values = Map.of(IndexValue.of((long) step), List.of("p=2/g" + step));
          lazyCopy.add("a", values);
          eagerCopy.add("a", values);
        }
      }
      for (String column : List.of("a", "b")) {
        assertThat(lazy.built(column)).as("run %d column %s", run, column).isEqualTo(eager.columns.get(column));
        assertThat(lazyCopy.built(column)).as("run %d copy column %s", run, column)
            .isEqualTo(eagerCopy.columns.get(column));
      }
      assertThat(lazy.built("c")).isNull();
    }
  }
}
