package io.ktk.flink.state.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.testing.PyChecks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer that takes over the pages of its previous file writes, publication after publication,
 * exactly the file written afresh from the same index: seeded rounds add values and remove them,
 * add labels to some values and take labels from others, empty values, and leave the rest alone
 * (given as the same collection, or an equal new one, or unsorted with duplicates); values range
 * from one label to more than a page, so pages end by content and by the size limit, and files
 * hold more than one row group. The content is checked against a model the test keeps, and
 * pyarrow reads the last files as the index they hold.
 */
class IndexFileWriterTest {
  private static final long SEED = 20_261_126L;
  private static final ArrowType I64 = new ArrowType.Int(64, true);
  /** Small pages and row groups: page ends by the size limit, several row groups. */
  private static final ParquetWriteOptions SMALL =
      ParquetWriteOptions.defaults().withPageSizeBytes(40_000).withRowGroupSizeBytes(200_000);

  @TempDir Path dir;

  /** One index as the test keeps it, and the collections it gave the writer last time. */
  private static final class Model<V> {
    final NavigableMap<V, TreeSet<String>> labels = new TreeMap<>();
    final Map<V, Collection<String>> given = new HashMap<>();
  }

  @Test
  void fileAfterManyChangesIsTheFileWrittenAfreshAndHoldsTheIndex() throws IOException {
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("i", rounds("i", I64, ParquetWriteOptions.defaults(), n -> (long) n * 7 - 300));
    expected.put("i_small", rounds("i_small", I64, SMALL, n -> (long) n));
    expected.put("s", rounds("s", ArrowType.Utf8.INSTANCE, SMALL, n -> "v" + n));
    Files.writeString(dir.resolve("expected.json"), new ObjectMapper().writeValueAsString(expected));

    PyChecks checks = PyChecks.run(
        """
        import pyarrow.parquet as pq
        d = sys.argv[1]
        expected = json.load(open(f"{d}/expected.json"))
        for column, rows in expected.items():
            def read(column=column, rows=rows):
                f = pq.ParquetFile(f"{d}/{column}.parquet")
                t = f.read()
                got = [[v, p] for v, p in zip(t.column(column).to_pylist(), t.column("partition").to_pylist())]
                groups = f.metadata.num_row_groups
                pages = [f.metadata.row_group(g).column(1).total_compressed_size for g in range(groups)]
                return got == rows, f"{groups} row groups {pages}; {got[:3]} ... != {rows[:3]} ..."
            check(column, read)
        check("row groups", lambda: (pq.ParquetFile(f"{d}/i_small.parquet").metadata.num_row_groups > 1, "one"))
        """,
        dir.toString());
    for (String column : expected.keySet()) {
      checks.assertOk(column);
    }
    checks.assertOk("row groups");
  }

  /**
   * Rounds of changes to an index of {@code column}: after each, the writer's file is the fresh
   * one, byte for byte, and reads back as the model. Writes the last file for pyarrow and returns
   * the model as (value, labels) rows.
   */
  private <V extends Comparable<V>> List<List<Object>> rounds(
      String column, ArrowType type, ParquetWriteOptions options, java.util.function.IntFunction<V> valueOf)
      throws IOException {
    Random random = new Random(SEED + column.hashCode());
    Model<V> model = new Model<>();
    IndexFileWriter writer = new IndexFileWriter(column, type, options);
    int nextLabel = 0;
    int pages = 0;
    int roundsTakingPagesOver = 0;
    byte[] file = null;
    for (int round = 0; round < 30; round++) {
      int changes = round == 0 ? 300 : 1 + random.nextInt(6);
      for (int c = 0; c < changes; c++) {
        V value = valueOf.apply(random.nextInt(300));
        TreeSet<String> labels = model.labels.computeIfAbsent(value, v -> new TreeSet<>());
        int kind = random.nextInt(10);
        if (kind < 6 || labels.isEmpty()) {
          // mostly a few labels; now and then more than a page holds
          int count = random.nextInt(20) == 0 ? 1_500 + random.nextInt(1_500) : 1 + random.nextInt(40);
          for (int k = 0; k < count; k++) {
            labels.add(String.format("day=2024-%02d-%02d/part_%08d", 1 + random.nextInt(12), 1 + random.nextInt(28),
                nextLabel++));
          }
        } else if (kind < 9) {
          List<String> all = new ArrayList<>(labels);
          labels.remove(all.get(random.nextInt(all.size())));
        } else {
          labels.clear();
        }
        model.given.remove(value);
      }
      model.labels.values().removeIf(TreeSet::isEmpty);
      Map<Object, Collection<String>> index = given(model, random);
      if (round % 7 == 3) {
        index.put(valueOf.apply(1_000), List.of()); // a value without labels is left out
      }
      file = writer.write(index);
      assertThat(file).as("%s round %d", column, round).isEqualTo(IndexFile.write(column, type, index, options));
      assertThat(IndexFile.read(file, column, column, type)).as("%s round %d", column, round)
          .isEqualTo(asLists(model.labels));
      if (round > 0) {
        pages += writer.pagesWritten();
        roundsTakingPagesOver += writer.pagesEncoded() < writer.pagesWritten() ? 1 : 0;
      }
    }
    // The rounds after the first took pages over: what is compared above is the reuse.
    assertThat(roundsTakingPagesOver).as(column).isGreaterThan(25);
    assertThat(pages).as(column).isGreaterThan(29 * 5);
    Files.write(dir.resolve(column + ".parquet"), file);
    List<List<Object>> rows = new ArrayList<>();
    model.labels.forEach((value, labels) -> rows.add(List.of(value, List.copyOf(labels))));
    return rows;
  }

  /**
   * The index as a caller gives it: an unchanged value's labels as the collection given last time,
   * or now and then as an equal new one, sorted or not and with a duplicate; a changed value's as a
   * new unmodifiable set.
   */
  private static <V> Map<Object, Collection<String>> given(Model<V> model, Random random) {
    Map<Object, Collection<String>> index = new HashMap<>();
    model.labels.forEach((value, labels) -> {
      Collection<String> collection = model.given.get(value);
      int kind = random.nextInt(40);
      if (collection == null) {
        collection = Collections.unmodifiableSortedSet(new TreeSet<>(labels));
        model.given.put(value, collection);
      } else if (kind == 0) {
        collection = List.copyOf(labels);
      } else if (kind == 1) {
        List<String> shuffled = new ArrayList<>(labels);
        shuffled.add(shuffled.get(0));
        Collections.shuffle(shuffled, random);
        collection = shuffled;
      }
      index.put(value, collection);
    });
    return index;
  }

  private static <V> Map<Object, List<String>> asLists(Map<V, TreeSet<String>> labels) {
    Map<Object, List<String>> lists = new LinkedHashMap<>();
    labels.forEach((value, set) -> lists.put(value, List.copyOf(set)));
    return lists;
  }
}
