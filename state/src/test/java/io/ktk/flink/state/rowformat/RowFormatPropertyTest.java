package io.ktk.flink.state.rowformat;

import static org.assertj.core.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Seeded properties over random columns ({@link RandomColumns}), checked against
 * {@link Reference}:
 *
 * <ul>
 *   <li>comparing two ordered encodings byte-wise orders the rows as comparing the columns does;
 *   <li>decoding returns the values (-0.0 as 0.0, NaNs as the canonical NaN);
 *   <li>encoding Flink rows (generic and binary) gives the same bytes as encoding Arrow vectors;
 *   <li>two unordered encodings are equal exactly when the rows are, and decode back too.
 * </ul>
 *
 * Seeds {@code 0 .. 599} by default; {@code -Drowformat.firstSeed=S -Drowformat.seeds=N} runs
 * others. A failure prints the seed, the columns and the two rows.
 */
class RowFormatPropertyTest {
  private static final long FIRST_SEED = Long.getLong("rowformat.firstSeed", 0);
  private static final int SEEDS = Integer.getInteger("rowformat.seeds", 600);

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
  void randomRowsCompareDecodeAndHashLikeTheirColumns() {
    for (long seed = FIRST_SEED; seed < FIRST_SEED + SEEDS; seed++) {
      RandomColumns random = new RandomColumns(seed);
      boolean flinkTypes = random.random().nextBoolean();
      int columns = 1 + random.random().nextInt(4);
      List<SortField> fields = new ArrayList<>();
      for (int c = 0; c < columns; c++) {
        fields.add(new SortField(random.field(2, flinkTypes), random.random().nextBoolean(),
            random.random().nextBoolean()));
      }
      check("seed " + seed, random, fields, 5 + random.random().nextInt(70));
    }
  }

  @Test
  void everyTypeInEveryDirectionAndNullPlacement() {
    List<Field> types = new ArrayList<>();
    int n = 0;
    for (ArrowType type : RandomColumns.SCALARS) {
      types.add(RandomColumns.scalar("t" + n++, type));
      types.add(list("l" + n++, RandomColumns.scalar("e", type)));
    }
    Field strings = RandomColumns.scalar("s", ArrowType.Utf8.INSTANCE);
    Field floats = RandomColumns.scalar("f", RandomColumns.SCALARS.get(10));
    types.add(list("ll", list("l", strings)));
    types.add(new Field("st", FieldType.nullable(ArrowType.Struct.INSTANCE),
        List.of(floats, strings, list("l", floats))));
    types.add(list("ls", types.get(types.size() - 1)));
    long seed = 1_000_000;
    for (Field field : types) {
      for (int options = 0; options < 4; options++) {
        seed++;
        SortField sortField = new SortField(field, (options & 1) != 0, (options & 2) != 0);
        check("seed " + seed + " (single column)", new RandomColumns(seed), List.of(sortField), 100);
      }
    }
  }

  private static Field list(String name, Field element) {
    return new Field(name, FieldType.nullable(ArrowType.List.INSTANCE), List.of(element));
  }

  private void check(String label, RandomColumns random, List<SortField> fields, int n) {
    List<Field> arrowFields = new ArrayList<>();
    List<List<Object>> columns = new ArrayList<>();
    for (SortField field : fields) {
      arrowFields.add(field.field());
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
    List<FieldVector> vectors = new ArrayList<>();
    try {
      for (int c = 0; c < fields.size(); c++) {
        vectors.add(ArrowValues.vector(allocator, arrowFields.get(c), columns.get(c)));
      }
      Case failure = new Case(label, fields, rows);

      RowConverter ordered = RowConverter.ordered(fields);
      Rows encoded = VectorRows.encode(ordered, vectors);
      for (int i = 0; i < n; i++) {
        for (int j = i; j < n; j++) {
          int expected = Integer.signum(Reference.compareRows(fields, rows.get(i), rows.get(j)));
          int actual = Integer.signum(encoded.compare(i, j));
          if (expected != actual) {
            failure.rows(i, j, encoded, "bytes compare " + actual + ", columns compare " + expected);
          }
        }
      }
      checkDecode(failure, ordered, encoded);
      checkRowData(failure, ordered, encoded, arrowFields, rows);

      RowConverter unordered = RowConverter.unordered(arrowFields);
      Rows hashed = VectorRows.encode(unordered, vectors);
      for (int i = 0; i < n; i++) {
        for (int j = i; j < n; j++) {
          boolean expected = Reference.compareRows(fields, rows.get(i), rows.get(j)) == 0;
          if (hashed.rowEquals(i, j) != expected) {
            failure.rows(i, j, hashed, "unordered bytes equal: " + !expected + ", rows: "
                + expected);
          }
        }
      }
      checkDecode(failure, unordered, hashed);
      checkRowData(failure, unordered, hashed, arrowFields, rows);
    } finally {
      vectors.forEach(FieldVector::close);
    }
  }

  private void checkDecode(Case failure, RowConverter converter, Rows encoded) {
    List<FieldVector> decoded = VectorRows.decode(converter, encoded, allocator);
    try {
      for (int c = 0; c < decoded.size(); c++) {
        List<Object> values = ArrowValues.read(decoded.get(c));
        for (int i = 0; i < encoded.size(); i++) {
          Object expected = Reference.canonical(failure.rows.get(i).get(c));
          if (!Reference.identical(values.get(i), expected)) {
            failure.row(i, encoded, "column " + c + " decoded ("
                + (converter.isOrdered() ? "ordered" : "unordered") + ") as "
                + Reference.format(values.get(i)));
          }
        }
      }
    } finally {
      decoded.forEach(FieldVector::close);
    }
  }

  private void checkRowData(
      Case failure, RowConverter converter, Rows encoded, List<Field> fields,
      List<List<Object>> rows) {
    List<LogicalType> types = new ArrayList<>();
    for (Field field : fields) {
      LogicalType type = FlinkTestValues.logicalType(field);
      if (type == null) {
        return; // not every Arrow type has a Flink type
      }
      types.add(type);
    }
    // key columns behind a leading column that is not part of the key
    List<LogicalType> withExtra = new ArrayList<>(types);
    withExtra.add(0, new org.apache.flink.table.types.logical.IntType());
    RowType rowType = RowType.of(withExtra.toArray(new LogicalType[0]));
    int[] positions = new int[fields.size()];
    for (int c = 0; c < positions.length; c++) {
      positions[c] = c + 1;
    }
    RowDataEncoder encoder = converter.rowDataEncoder(rowType, positions);
    RowDataSerializer serializer = new RowDataSerializer(rowType);
    RowBuffer buffer = new RowBuffer(1);
    for (int i = 0; i < rows.size(); i++) {
      boolean fromBytes = i % 2 == 0;
      GenericRowData generic = new GenericRowData(fields.size() + 1);
      generic.setField(0, 42);
      for (int c = 0; c < fields.size(); c++) {
        generic.setField(c + 1, FlinkTestValues.internal(fields.get(c), rows.get(i).get(c), fromBytes));
      }
      for (RowData row : List.of(generic, serializer.toBinaryRow(generic).copy())) {
        encoder.encode(row, buffer);
        if (!buffer.view().equals(encoded.row(i))) {
          failure.row(i, encoded, "encoding the " + row.getClass().getSimpleName() + " gave "
              + buffer);
        }
      }
    }
  }

  /** Prints a failing case: the label (seed), the columns and the rows involved. */
  private record Case(String label, List<SortField> fields, List<List<Object>> rows) {
    void rows(int i, int j, Rows encoded, String problem) {
      fail("%s: %s%n  columns: %s%n  row %d: %s%n    %s%n  row %d: %s%n    %s", label, problem,
          describe(fields), i, Reference.format(rows.get(i)), encoded.row(i), j,
          Reference.format(rows.get(j)), encoded.row(j));
    }

    void row(int i, Rows encoded, String problem) {
      fail("%s: %s%n  columns: %s%n  row %d: %s%n    %s", label, problem, describe(fields), i,
          Reference.format(rows.get(i)), encoded.row(i));
    }

    private static String describe(List<SortField> fields) {
      List<String> parts = new ArrayList<>();
      for (SortField f : fields) {
        parts.add(f.field() + (f.descending() ? " desc" : " asc")
            + (f.nullsFirst() ? " nulls first" : " nulls last"));
      }
      return String.join(", ", parts);
    }
  }
}
