package io.ktk.flink.state.rowformat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Sorting, comparing and viewing the rows of a batch. */
class RowsSortTest {
  private static BufferAllocator allocator;

  @BeforeAll
  static void openAllocator() {
    allocator = new RootAllocator();
  }

  @AfterAll
  static void closeAllocator() {
    allocator.close();
  }

  @Test
  void sortedIndicesOrderRowsLikeTheColumnsAndKeepEqualRowsInInputOrder() {
    for (long seed = 0; seed < 40; seed++) {
      RandomColumns random = new RandomColumns(seed);
      int columns = 1 + random.random().nextInt(3);
      List<SortField> fields = new ArrayList<>();
      for (int c = 0; c < columns; c++) {
        fields.add(new SortField(random.field(1, false), random.random().nextBoolean(),
            random.random().nextBoolean()));
      }
      int n = 50 + random.random().nextInt(3000);
      List<List<Object>> rows = rows(random, fields, n);
      String label = "seed " + seed + " " + fields;
      withRows(fields, rows, encoded -> checkSorted(label, fields, rows, encoded.sortedIndices()));
    }
  }

  @Test
  void sortsLongValuesSharingLongPrefixesAndManyEqualRows() {
    Random random = new Random(7);
    String prefix = "p".repeat(150);
    Field text = RandomColumns.scalar("text", ArrowType.Utf8.INSTANCE);
    Field number = RandomColumns.scalar("number", new ArrowType.Int(64, true));
    List<SortField> fields = List.of(SortField.ascending(text), new SortField(number, true, false));
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      String value = switch (random.nextInt(4)) {
        case 0 -> prefix;
        case 1 -> prefix + "\0";
        case 2 -> prefix + (char) ('a' + random.nextInt(3)) + "x".repeat(random.nextInt(40));
        default -> prefix.substring(0, random.nextInt(150));
      };
      rows.add(Arrays.asList(value, random.nextInt(10) == 0 ? null : (long) random.nextInt(3)));
    }
    withRows(fields, rows, encoded ->
        checkSorted("long prefixes", fields, rows, encoded.sortedIndices()));
  }

  @Test
  void sortsAnySubsetOfRowNumbers() {
    Field number = RandomColumns.scalar("number", new ArrowType.Int(32, true));
    List<SortField> fields = List.of(SortField.ascending(number));
    List<List<Object>> rows = new ArrayList<>();
    for (long v : new long[] {5, 3, 9, 1, 7, 3}) {
      rows.add(List.of(v));
    }
    withRows(fields, rows, encoded -> {
      int[] subset = {4, 0, 5, 1};
      encoded.sort(subset);
      // rows 5 and 1 are equal: they keep their order in the array
      assertThat(subset).containsExactly(5, 1, 0, 4);
      assertThatThrownBy(() -> encoded.sort(new int[] {6}))
          .isInstanceOf(IndexOutOfBoundsException.class);
    });
  }

  @Test
  void rowsOfTwoBatchesCompareAndRowViewsAreComparableKeys() {
    Field number = RandomColumns.scalar("number", new ArrowType.Int(64, true));
    RowConverter converter = RowConverter.ordered(List.of(SortField.ascending(number)));
    try (FieldVector a = ArrowValues.vector(allocator, number, List.of(1L, 5L));
        FieldVector b = ArrowValues.vector(allocator, number, Arrays.asList(5L, null))) {
      Rows left = VectorRows.encode(converter, List.of(a));
      Rows right = VectorRows.encode(converter, List.of(b));
      assertThat(Rows.compare(left, 0, right, 0)).isNegative();
      assertThat(Rows.compare(left, 1, right, 0)).isZero();
      assertThat(Rows.compare(left, 1, right, 1)).isPositive();
      assertThat(left.row(1)).isEqualTo(right.row(0)).hasSameHashCodeAs(right.row(0));
      assertThat(left.row(1)).isGreaterThan(right.row(1)).isNotEqualTo(left.row(0));
      assertThat(left.hash(1)).isEqualTo(right.hash(0));
      assertThat(left.length(0)).isEqualTo(9);
      assertThat(left.byteSize()).isEqualTo(18);
    }
  }

  private static List<List<Object>> rows(RandomColumns random, List<SortField> fields, int n) {
    List<List<Object>> columns = new ArrayList<>();
    for (SortField field : fields) {
      columns.add(random.column(field.field(), n));
    }
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      List<Object> row = new ArrayList<>();
      for (List<Object> column : columns) {
        row.add(column.get(i));
      }
      rows.add(row);
    }
    return rows;
  }

  private static void checkSorted(
      String label, List<SortField> fields, List<List<Object>> rows, int[] sorted) {
    assertThat(sorted.clone()).as(label).satisfies(s -> {
      Arrays.sort(s);
      for (int i = 0; i < s.length; i++) {
        assertThat(s[i]).isEqualTo(i);
      }
    });
    for (int k = 0; k + 1 < sorted.length; k++) {
      int a = sorted[k];
      int b = sorted[k + 1];
      int c = Reference.compareRows(fields, rows.get(a), rows.get(b));
      if (c > 0 || (c == 0 && a > b)) {
        fail("%s: position %d holds row %d %s, followed by row %d %s", label, k, a,
            Reference.format(rows.get(a)), b, Reference.format(rows.get(b)));
      }
    }
  }

  private static void withRows(
      List<SortField> fields, List<List<Object>> rows, java.util.function.Consumer<Rows> check) {
    List<FieldVector> vectors = new ArrayList<>();
    try {
      for (int c = 0; c < fields.size(); c++) {
        List<Object> column = new ArrayList<>();
        for (List<Object> row : rows) {
          column.add(row.get(c));
        }
        vectors.add(ArrowValues.vector(allocator, fields.get(c).field(), column));
      }
      check.accept(VectorRows.encode(RowConverter.ordered(fields), vectors));
    } finally {
      vectors.forEach(FieldVector::close);
    }
  }
}
