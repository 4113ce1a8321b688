package io.ktk.flink.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.source.planner.GroupPartition;
import io.ktk.flink.source.planner.QueryGroup;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.query.QuerySettings;
import io.ktk.flink.source.query.QueryTarget;
import io.ktk.flink.source.split.CubeSplit;
import io.ktk.flink.source.split.CubeSplits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;
import org.junit.jupiter.api.Test;

/**
 * The splits of an upsert changelog: every split of a partition goes to the same reader, in the
 * order the enumerator holds them (the pinned version's split before each discovery's), also when
 * a failed reader hands its split back, so that a key's changes reach the stream in commit order
 * with several readers.
 */
class ChangelogSplitAssignmentTest {
  private static final int PARTITIONS = 8;

  private static CubeSplit split(String prefix, int partition) {
    GroupPartition files = new GroupPartition("p=" + partition, List.of((long) partition), Map.of());
    return new CubeSplit(prefix + String.format("group-%05d", partition), Map.of("events", 0L),
        new QueryGroup(List.of((long) partition), List.of(files)), 0);
  }

  /** The pinned version's split of each partition, then two discoveries' splits of each. */
  private static List<CubeSplit> splits() {
    List<CubeSplit> splits = new ArrayList<>();
    for (String prefix : List.of("", CubeSplits.discoveryPrefix(1), CubeSplits.discoveryPrefix(2))) {
      for (int p = 0; p < PARTITIONS; p++) {
        splits.add(split(prefix, p));
      }
    }
    return splits;
  }

  private static CubeSplitEnumerator enumerator(MockSplitEnumeratorContext<CubeSplit> context, boolean byPartition) {
    QuerySettings settings = new QuerySettings("file:///unused", Map.of(), QueryTarget.dataset("events"),
        CubeQuery.builder().build());
    return new CubeSplitEnumerator(context, new CubeEnumeratorState(splits(), 0, 2),
        new CubeSplitEnumerator.Discovery(settings, Duration.ofHours(1), 16, byPartition));
  }

  /**
   * Readers ask in turns (each after finishing its split), {@code turns} giving the reader of each
   * request in a cycle; the splits each got, in order.
   */
  private static Map<Integer, List<CubeSplit>> serve(MockSplitEnumeratorContext<CubeSplit> context,
      CubeSplitEnumerator enumerator, int requests, int... turns) {
    for (int i = 0; i < requests; i++) {
      enumerator.handleSplitRequest(turns[i % turns.length], "localhost");
    }
    Map<Integer, List<CubeSplit>> got = new HashMap<>();
    for (SplitsAssignment<CubeSplit> assignment : context.getSplitsAssignmentSequence()) {
      assignment.assignment().forEach((reader, splits) -> got.computeIfAbsent(reader, r -> new ArrayList<>())
          .addAll(splits));
    }
    return got;
  }

  private static String partition(CubeSplit split) {
    return split.group().partitions().get(0).path();
  }

  @Test
  void everySplitOfAPartitionGoesToOneReaderInOrder() throws Exception {
    try (MockSplitEnumeratorContext<CubeSplit> context = new MockSplitEnumeratorContext<>(2)) {
      context.registerReader(new ReaderInfo(0, "localhost"));
      context.registerReader(new ReaderInfo(1, "localhost"));
      CubeSplitEnumerator enumerator = enumerator(context, true);
      // reader 0 is twice as fast: without the rule it would take splits of every partition
      Map<Integer, List<CubeSplit>> got = serve(context, enumerator, 4 * PARTITIONS * 3, 0, 0, 1);

      assertThat(got.values().stream().mapToInt(List::size).sum()).as("splits handed out").isEqualTo(3 * PARTITIONS);
      assertThat(got).as("both readers read").containsKeys(0, 1);
      Map<String, Integer> readerOf = new HashMap<>();
      got.forEach((reader, splits) -> splits.forEach(split -> {
        Integer other = readerOf.put(partition(split), reader);
        assertThat(other == null || other.equals(reader)).as("partition %s read by readers %s and %s",
            partition(split), other, reader).isTrue();
      }));
      for (List<CubeSplit> splits : got.values()) {
        for (String partition : new HashSet<>(readerOf.keySet())) {
          List<String> ids = splits.stream().filter(split -> partition(split).equals(partition))
              .map(CubeSplit::splitId).toList();
          int p = Integer.parseInt(partition.substring(2));
          if (!ids.isEmpty()) {
            assertThat(ids).as("splits of %s in the order they were made", partition).containsExactly(
                split("", p).splitId(), split(CubeSplits.discoveryPrefix(1), p).splitId(),
                split(CubeSplits.discoveryPrefix(2), p).splitId());
          }
        }
      }
    }
  }

  @Test
  void aSplitHandedBackReturnsToItsReaderBeforeTheNextOfItsPartition() throws Exception {
    try (MockSplitEnumeratorContext<CubeSplit> context = new MockSplitEnumeratorContext<>(2)) {
      context.registerReader(new ReaderInfo(0, "localhost"));
      context.registerReader(new ReaderInfo(1, "localhost"));
      CubeSplitEnumerator enumerator = enumerator(context, true);
      enumerator.handleSplitRequest(0, "localhost");
      CubeSplit first = context.getSplitsAssignmentSequence().get(0).assignment().get(0).get(0);
      enumerator.addSplitsBack(List.of(first), 0); // reader 0 failed before it finished the split
      enumerator.handleSplitRequest(1, "localhost");
      enumerator.handleSplitRequest(0, "localhost");
      enumerator.handleSplitRequest(0, "localhost");
      List<SplitsAssignment<CubeSplit>> sequence = context.getSplitsAssignmentSequence();
      List<CubeSplit> toReader0 = new ArrayList<>();
      Set<String> toReader1 = new HashSet<>();
      for (SplitsAssignment<CubeSplit> assignment : sequence.subList(1, sequence.size())) {
        toReader0.addAll(assignment.assignment().getOrDefault(0, List.of()));
        assignment.assignment().getOrDefault(1, List.of()).forEach(split -> toReader1.add(partition(split)));
      }
      assertThat(toReader0.get(0)).as("the split handed back, again first").isEqualTo(first);
      assertThat(toReader1).as("partitions read by reader 1").doesNotContain(partition(first));
    }
  }

  @Test
  void withoutChangelogTheNextSplitGoesToWhoeverAsks() throws Exception {
    try (MockSplitEnumeratorContext<CubeSplit> context = new MockSplitEnumeratorContext<>(2)) {
      context.registerReader(new ReaderInfo(0, "localhost"));
      context.registerReader(new ReaderInfo(1, "localhost"));
      Map<Integer, List<CubeSplit>> got = serve(context, enumerator(context, false), 4, 0, 1);
      assertThat(got.get(0)).extracting(CubeSplit::splitId).containsExactly("group-00000", "group-00002");
      assertThat(got.get(1)).extracting(CubeSplit::splitId).containsExactly("group-00001", "group-00003");
    }
  }
}
