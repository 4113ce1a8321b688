package io.ktk.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.ktk.flink.state.vector.DoubleVector;
import io.ktk.flink.state.vector.LongType;
import io.ktk.flink.state.vector.LongVector;
import io.ktk.flink.state.vector.ObjectVector;
import io.ktk.flink.state.vector.TypedVector;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * CSV and JSON lines of many seeded random rows of every printed type (doubles of every magnitude
 * with subnormals, ±0, NaN, ±infinity and powers of ten; floats; timestamps in ms, µs and ns, local
 * and UTC, over the whole range of years; dates; times; strings with commas, quotes, line breaks,
 * control characters, backslashes and none at all; binary; decimals; booleans; lists; nulls) are character for character what the
 * formatting before {@link TextBuffer} ({@link ValueFormatBefore}) wrote, from typed rows (as
 * {@code ktk read} writes them) and from column vectors (as {@code ktk query} does).
 */
class OutputFormattingTest {
  private static final long SEED = Long.getLong("ktk.test.seed", 20261125L);
  private static final int ROWS = 10_000;
  private static final String CHAR_POOL = "ab, \"\r\n\t\b\f\u0000\u0001\u001f\u007f\\/ü日😀x";

  static final List<Field> FIELDS = List.of(
      field("f64", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      field("f32", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
      field("i64", new ArrowType.Int(64, true)),
      field("u64", new ArrowType.Int(64, false)),
      field("ts_ms", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null)),
      field("ts_us", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
      field("ts_ns_utc", new ArrowType.Timestamp(TimeUnit.NANOSECOND, "UTC")),
      field("d", new ArrowType.Date(DateUnit.DAY)),
      field("t", new ArrowType.Time(TimeUnit.NANOSECOND, 64)),
      field("s, \"quoted\"", ArrowType.Utf8.INSTANCE),
      field("b", ArrowType.Binary.INSTANCE),
      field("dec", new ArrowType.Decimal(12, 3, 128)),
      field("bool", ArrowType.Bool.INSTANCE),
      new Field("l", FieldType.nullable(ArrowType.List.INSTANCE),
          List.of(field("item", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)))),
      new Field("st", FieldType.nullable(ArrowType.Struct.INSTANCE),
          List.of(field("a\"\n", ArrowType.Utf8.INSTANCE), field("b", new ArrowType.Int(64, true)))));

  private static TypedVector[] columns;
  private static List<Object[]> rows;

  @BeforeAll
  static void generate() {
    Random random = new Random(SEED);
    columns = new TypedVector[] {new DoubleVector(ROWS), new DoubleVector(ROWS),
        new LongVector(LongType.INTEGER, ROWS), new LongVector(LongType.UNSIGNED_64, ROWS),
        new LongVector(LongType.timestamp(1_000_000, false), ROWS),
        new LongVector(LongType.timestamp(1_000, false), ROWS), new LongVector(LongType.timestamp(1, true), ROWS),
        new LongVector(LongType.DATE, ROWS), new LongVector(LongType.TIME, ROWS), new ObjectVector(ROWS),
        new ObjectVector(ROWS), new LongVector(LongType.decimal(3), ROWS), new ObjectVector(ROWS),
        new ObjectVector(ROWS), new ObjectVector(ROWS)};
    for (int row = 0; row < ROWS; row++) {
      for (int c = 0; c < columns.length; c++) {
        if (random.nextInt(10) == 0) {
          columns[c].appendNull();
        } else {
          appendRandom(random, c, columns[c]);
        }
      }
    }
    rows = new ArrayList<>();
    for (int row = 0; row < ROWS; row++) {
      Object[] values = new Object[columns.length];
      for (int c = 0; c < columns.length; c++) {
        values[c] = columns[c].get(row);
      }
      values[1] = values[1] == null ? null : (float) (double) (Double) values[1]; // a float column's typed value
      rows.add(values);
    }
  }

  @Test
  void csvIsWhatItWasFromRowsAndFromColumns() throws IOException {
    StringBuilder expected = new StringBuilder();
    expected.append(String.join(",", FIELDS.stream().map(f -> ValueFormatBefore.csvField(f, f.getName())).toList()))
        .append("\r\n");
    for (Object[] row : rows) {
      for (int c = 0; c < row.length; c++) {
        if (c > 0) {
          expected.append(',');
        }
        if (row[c] != null) {
          expected.append(ValueFormatBefore.csvField(FIELDS.get(c), row[c]));
        }
      }
      expected.append("\r\n");
    }

    assertThat(csvOfRows()).isEqualTo(expected.toString());
    assertThat(csvOfColumns()).isEqualTo(expected.toString());
  }

  @Test
  void jsonLinesAreWhatTheyWereFromRowsAndFromColumns() throws IOException {
    StringWriter expected = new StringWriter();
    JsonFactory factory = new JsonFactory();
    try (JsonGenerator json = factory.createGenerator(expected)) {
      json.setRootValueSeparator(null);
      for (Object[] row : rows) {
        json.writeStartObject();
        for (int c = 0; c < row.length; c++) {
          json.writeFieldName(FIELDS.get(c).getName());
          ValueFormatBefore.write(json, FIELDS.get(c), row[c]);
        }
        json.writeEndObject();
        json.writeRaw('\n');
      }
    }

    StringWriter fromRows = new StringWriter();
    StringWriter fromColumns = new StringWriter();
    RowWriter rowWriter = RowWriter.of(RowWriter.OutputFormat.JSONL, new PrintWriter(fromRows), FIELDS);
    RowWriter columnWriter = RowWriter.of(RowWriter.OutputFormat.JSONL, new PrintWriter(fromColumns), FIELDS);
    for (int row = 0; row < ROWS; row++) {
      rowWriter.write(rows.get(row));
      columnWriter.write(columns, row);
    }
    rowWriter.flush();
    columnWriter.flush();
    assertThat(fromRows.toString()).isEqualTo(expected.toString());
    assertThat(fromColumns.toString()).isEqualTo(expected.toString());
  }

  @Test
  void csvOutputIsHeldUntilFlushedInChunks() throws IOException {
    StringWriter out = new StringWriter();
    RowWriter writer = RowWriter.of(RowWriter.OutputFormat.CSV, new PrintWriter(out), FIELDS);
    writer.write(rows.get(0));
    assertThat(out.toString()).as("a row waits in the buffer").isEmpty();
    for (int row = 1; row < ROWS; row++) {
      writer.write(rows.get(row));
    }
    assertThat(out.toString()).as("a full buffer goes out without a flush").isNotEmpty()
        .endsWith("\r\n");
    writer.flush();
    assertThat(out.toString().split("\r\n", -1)).hasSizeGreaterThan(ROWS); // rows with line breaks in quotes add more
  }

  private static String csvOfRows() throws IOException {
    StringWriter out = new StringWriter();
    RowWriter writer = RowWriter.of(RowWriter.OutputFormat.CSV, new PrintWriter(out), FIELDS);
    for (Object[] row : rows) {
      writer.write(row);
    }
    writer.flush();
    return out.toString();
  }

  private static String csvOfColumns() throws IOException {
    StringWriter out = new StringWriter();
    RowWriter writer = RowWriter.of(RowWriter.OutputFormat.CSV, new PrintWriter(out), FIELDS);
    for (int row = 0; row < ROWS; row++) {
      writer.write(columns, row);
    }
    writer.flush();
    return out.toString();
  }

  private static void appendRandom(Random random, int column, TypedVector vector) {
    switch (column) {
      case 0 -> ((DoubleVector) vector).append(randomDouble(random));
      case 1 -> ((DoubleVector) vector).append((float) randomDouble(random));
      case 2, 3 -> ((LongVector) vector).append(random.nextBoolean() ? random.nextLong() : random.nextInt(1000) - 500);
      case 4, 5, 6 -> ((LongVector) vector).append(randomTimestamp(random, column));
      // recent days, or any day of the years -6243 to 10183
      case 7 -> ((LongVector) vector).append(random.nextBoolean() ? 19_000 + random.nextInt(1000)
          : random.nextInt(6_000_000) - 3_000_000);
      case 8 -> {
        long nanos = (long) (random.nextDouble() * 86_400_000_000_000L);
        long[] units = {1, 1_000, 1_000_000_000};
        // whole seconds, whole microseconds or any nanoseconds
        long unit = units[random.nextInt(3)];
        ((LongVector) vector).append(nanos / unit * unit);
      }
      case 9 -> ((ObjectVector) vector).append(randomString(random));
      case 10 -> ((ObjectVector) vector).append(randomString(random).getBytes(StandardCharsets.UTF_8));
      case 11 -> ((LongVector) vector).append(random.nextLong() % 1_000_000_000_000L);
      case 12 -> ((ObjectVector) vector).append(random.nextBoolean());
      case 13 -> {
        List<Object> list = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
          list.add(random.nextInt(4) == 0 ? null : randomDouble(random));
        }
        ((ObjectVector) vector).append(list);
      }
      default -> {
        Map<String, Object> struct = new HashMap<>();
        struct.put("a\"\n", random.nextBoolean() ? null : randomString(random));
        struct.put("b", random.nextLong());
        ((ObjectVector) vector).append(struct);
      }
    }
  }

  /** Any long in a third of the cases (years far beyond 9999 and before 1); else around today, same days often. */
  private static long randomTimestamp(Random random, int column) {
    long unitsPerSecond = column == 4 ? 1_000 : column == 5 ? 1_000_000 : 1_000_000_000;
    return switch (random.nextInt(3)) {
      case 0 -> random.nextLong();
      case 1 -> (1_700_000_000L + random.nextInt(86_400 * 3)) * unitsPerSecond;
      default -> (1_700_000_000L + random.nextInt(86_400 * 3)) * unitsPerSecond + random.nextLong(unitsPerSecond);
    };
  }

  private static double randomDouble(Random random) {
    return switch (random.nextInt(8)) {
      case 0 -> Double.longBitsToDouble(random.nextLong());
      case 1 -> Double.longBitsToDouble(random.nextLong() & 0x800FFFFFFFFFFFFFL); // subnormal
      case 2 -> List.of(0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
          Double.MIN_VALUE, Double.MAX_VALUE).get(random.nextInt(7));
      case 3 -> Double.parseDouble("1e" + (random.nextInt(640) - 325)); // powers of ten
      case 4 -> (random.nextInt(2_000_001) - 1_000_000) / Math.pow(10, random.nextInt(8));
      default -> random.nextDouble() * Math.pow(10, random.nextInt(40) - 20);
    };
  }

  private static String randomString(Random random) {
    StringBuilder text = new StringBuilder();
    int length = random.nextInt(4) == 0 ? 0 : random.nextInt(12);
    for (int i = 0; i < length; i++) {
      int at = random.nextInt(CHAR_POOL.length() - 1);
      if (Character.isHighSurrogate(CHAR_POOL.charAt(at))) {
        text.append(CHAR_POOL, at, at + 2);
      } else if (!Character.isLowSurrogate(CHAR_POOL.charAt(at))) {
        text.append(CHAR_POOL.charAt(at));
      }
    }
    return text.toString();
  }

  private static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.nullable(type), null);
  }
}
