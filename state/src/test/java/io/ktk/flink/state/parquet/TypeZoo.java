package io.ktk.flink.state.parquet;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One column of every type the project writes, with three rows of edge values; the Python side
 * of the tests holds the same table, written out by hand ({@link #PYTHON}).
 */
final class TypeZoo {
  private TypeZoo() {}

  static final ArrowType I64 = new ArrowType.Int(64, true);
  static final ArrowType UTF8 = ArrowType.Utf8.INSTANCE;
  static final ArrowType F64 = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);

  /** The schema as written. */
  static final Schema SCHEMA = schema("item", new ArrowType.LargeUtf8());

  /** The schema pyarrow (and {@link ParquetRowsReader#arrowSchema()}) reads from the Parquet schema alone. */
  static final Schema READ_SCHEMA = schema("element", UTF8);

  private static Schema schema(String elementName, ArrowType largeString) {
    return new Schema(
        List.of(
            Field.nullable("i8", new ArrowType.Int(8, true)),
            Field.nullable("i16", new ArrowType.Int(16, true)),
            Field.nullable("i32", new ArrowType.Int(32, true)),
            Field.nullable("i64", I64),
            Field.nullable("u8", new ArrowType.Int(8, false)),
            Field.nullable("u16", new ArrowType.Int(16, false)),
            Field.nullable("u32", new ArrowType.Int(32, false)),
            Field.nullable("u64", new ArrowType.Int(64, false)),
            Field.nullable("f32", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)),
            Field.nullable("f64", F64),
            Field.nullable("b", ArrowType.Bool.INSTANCE),
            Field.nullable("s", UTF8),
            Field.nullable("ls", largeString),
            Field.nullable("bin", ArrowType.Binary.INSTANCE),
            Field.nullable("fsb", new ArrowType.FixedSizeBinary(3)),
            Field.nullable("d", new ArrowType.Date(DateUnit.DAY)),
            Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
            Field.nullable("tsz", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC")),
            Field.nullable("tsn", new ArrowType.Timestamp(TimeUnit.NANOSECOND, null)),
            Field.nullable("tsm", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null)),
            Field.nullable("t", new ArrowType.Time(TimeUnit.MICROSECOND, 64)),
            Field.nullable("dec", new ArrowType.Decimal(10, 2, 128)),
            Field.nullable("dec38", new ArrowType.Decimal(38, 10, 128)),
            list("l", Field.nullable(elementName, I64)),
            list("ls2", Field.nullable(elementName, UTF8)),
            struct("st", Field.nullable("a", I64), Field.nullable("b", UTF8)),
            list("lst", struct(elementName, Field.nullable("x", F64))),
            Field.nullable("n", ArrowType.Null.INSTANCE),
            Field.notNullable("req", I64)));
  }

  static final List<List<Object>> ROWS =
      List.of(
          Arrays.asList(
              -128L, 32767L, -2147483648L, Long.MIN_VALUE,
              255L, 65535L, 4294967295L, -1L,
              1.5, Double.NaN, true, "héllo ✓", "x",
              new byte[] {0, (byte) 0xFF}, new byte[] {1, 2, 3},
              LocalDate.of(1970, 1, 1),
              LocalDateTime.of(2020, 1, 2, 3, 4, 5, 123_456_000),
              Instant.parse("2020-01-02T03:04:05.123456Z"),
              LocalDateTime.of(2020, 1, 2, 3, 4, 5, 123_456_789),
              LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000_000),
              LocalTime.of(23, 59, 59, 999_999_000),
              new BigDecimal("-12345678.90"),
              new BigDecimal("1234567890123456789012345678.0123456789"),
              Arrays.asList(1L, null, 3L),
              Arrays.asList("a", null),
              struct("a", 1L, "b", null),
              Arrays.asList(struct("x", 1.0), null, struct("x", Double.NaN)),
              null,
              1L),
          nullsBut(2L),
          Arrays.asList(
              127L, -32768L, 2147483647L, Long.MAX_VALUE,
              0L, 1L, 2147483648L, Long.MIN_VALUE,
              Double.NEGATIVE_INFINITY, -0.0, false, "", "y",
              new byte[0], "abc".getBytes(StandardCharsets.US_ASCII),
              LocalDate.of(9999, 12, 31),
              LocalDateTime.of(1900, 1, 1, 0, 0),
              Instant.parse("1969-12-31T23:59:59.999999Z"),
              LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999),
              LocalDateTime.of(2000, 2, 29, 12, 0),
              LocalTime.MIDNIGHT,
              new BigDecimal("0.01"),
              new BigDecimal("-0.0000000001"),
              List.of(),
              Arrays.asList((Object) null),
              struct("a", null, "b", "z"),
              List.of(),
              null,
              3L));

  /** The same columns in Python: name, type as written, type read without ARROW:schema (or None), values. */
  static final String PYTHON =
      """
      import pyarrow as pa, pyarrow.parquet as pq, datetime as dt, decimal
      D = decimal.Decimal
      UTC = dt.timezone.utc
      nan = float("nan")
      def el(t):
          return pa.list_(pa.field("element", t))
      COLUMNS = [
          ("i8", pa.int8(), None, [-128, None, 127]),
          ("i16", pa.int16(), None, [32767, None, -32768]),
          ("i32", pa.int32(), None, [-2147483648, None, 2147483647]),
          ("i64", pa.int64(), None, [-9223372036854775808, None, 9223372036854775807]),
          ("u8", pa.uint8(), None, [255, None, 0]),
          ("u16", pa.uint16(), None, [65535, None, 1]),
          ("u32", pa.uint32(), None, [4294967295, None, 2147483648]),
          ("u64", pa.uint64(), None, [18446744073709551615, None, 9223372036854775808]),
          ("f32", pa.float32(), None, [1.5, None, float("-inf")]),
          ("f64", pa.float64(), None, [nan, None, -0.0]),
          ("b", pa.bool_(), None, [True, None, False]),
          ("s", pa.string(), None, ["héllo ✓", None, ""]),
          ("ls", pa.large_string(), pa.string(), ["x", None, "y"]),
          ("bin", pa.binary(), None, [b"\\x00\\xff", None, b""]),
          ("fsb", pa.binary(3), None, [b"\\x01\\x02\\x03", None, b"abc"]),
          ("d", pa.date32(), None, [dt.date(1970, 1, 1), None, dt.date(9999, 12, 31)]),
          ("ts", pa.timestamp("us"), None, [dt.datetime(2020, 1, 2, 3, 4, 5, 123456), None, dt.datetime(1900, 1, 1)]),
          ("tsz", pa.timestamp("us", "UTC"), None,
              [dt.datetime(2020, 1, 2, 3, 4, 5, 123456, tzinfo=UTC), None, dt.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)]),
          ("tsn", pa.timestamp("ns"), None, [1577934245123456789, None, -1]),
          ("tsm", pa.timestamp("ms"), None, [dt.datetime(1969, 12, 31, 23, 59, 59, 999000), None, dt.datetime(2000, 2, 29, 12)]),
          ("t", pa.time64("us"), None, [dt.time(23, 59, 59, 999999), None, dt.time(0, 0)]),
          ("dec", pa.decimal128(10, 2), None, [D("-12345678.90"), None, D("0.01")]),
          ("dec38", pa.decimal128(38, 10), None, [D("1234567890123456789012345678.0123456789"), None, D("-0.0000000001")]),
          ("l", pa.list_(pa.int64()), el(pa.int64()), [[1, None, 3], None, []]),
          ("ls2", pa.list_(pa.string()), el(pa.string()), [["a", None], None, [None]]),
          ("st", pa.struct([("a", pa.int64()), ("b", pa.string())]), None, [{"a": 1, "b": None}, None, {"a": None, "b": "z"}]),
          ("lst", pa.list_(pa.struct([("x", pa.float64())])), el(pa.struct([("x", pa.float64())])),
              [[{"x": 1.0}, None, {"x": nan}], None, []]),
          ("n", pa.null(), None, [None, None, None]),
          ("req", pa.int64(), None, [1, 2, 3]),
      ]
      def zoo_schema():
          return pa.schema([pa.field(n, t, nullable=(n != "req")) for n, t, _, _ in COLUMNS])
      def zoo_table():
          return pa.Table.from_arrays([pa.array(v, type=t) for n, t, _, v in COLUMNS], schema=zoo_schema())
      def check_zoo_file(path, with_arrow_schema=False):
          t = pq.read_table(path)
          problems = []
          for n, written, read, values in COLUMNS:
              f = t.schema.field(n)
              expected = written if with_arrow_schema or read is None else read
              if str(f.type) != str(expected):
                  problems.append(f"{n}: type {f.type} != {expected}")
              if f.nullable != (n != "req"):
                  problems.append(f"{n}: nullable {f.nullable}")
              want = pa.array(values, type=expected).to_pylist()
              got = t.column(n).to_pylist()
              if not same(got, want):
                  problems.append(f"{n}: {got!r} != {want!r}")
          t.to_pandas()
          return not problems, "; ".join(problems)
      """;

  private static List<Object> nullsBut(long req) {
    List<Object> row = new ArrayList<>();
    for (int i = 0; i < SCHEMA.getFields().size() - 1; i++) {
      row.add(null);
    }
    row.add(req);
    return row;
  }

  private static Field list(String name, Field element) {
    return new Field(name, FieldType.nullable(ArrowType.List.INSTANCE), List.of(element));
  }

  private static Field struct(String name, Field... members) {
    return new Field(name, FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(members));
  }

  /** A struct value; members may be null. */
  static Map<String, Object> struct(Object... namesAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      map.put((String) namesAndValues[i], namesAndValues[i + 1]);
    }
    return map;
  }

  /** Values comparable with equals: byte arrays become hex strings, recursively. */
  static Object comparable(Object value) {
    if (value instanceof byte[]) {
      return "0x" + HexFormat.of().formatHex((byte[]) value);
    }
    if (value instanceof List) {
      List<Object> list = new ArrayList<>();
      for (Object item : (List<?>) value) {
        list.add(comparable(item));
      }
      return list;
    }
    if (value instanceof Map) {
      Map<Object, Object> map = new LinkedHashMap<>();
      ((Map<?, ?>) value).forEach((k, v) -> map.put(k, comparable(v)));
      return map;
    }
    return value;
  }
}
