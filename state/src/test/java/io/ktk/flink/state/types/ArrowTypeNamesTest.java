package io.ktk.flink.state.types;

import static io.ktk.flink.state.types.Fields.BINARY;
import static io.ktk.flink.state.types.Fields.BOOL;
import static io.ktk.flink.state.types.Fields.DATE32;
import static io.ktk.flink.state.types.Fields.DATE64;
import static io.ktk.flink.state.types.Fields.FLOAT16;
import static io.ktk.flink.state.types.Fields.FLOAT32;
import static io.ktk.flink.state.types.Fields.FLOAT64;
import static io.ktk.flink.state.types.Fields.INT16;
import static io.ktk.flink.state.types.Fields.INT32;
import static io.ktk.flink.state.types.Fields.INT64;
import static io.ktk.flink.state.types.Fields.INT8;
import static io.ktk.flink.state.types.Fields.LARGE_BINARY;
import static io.ktk.flink.state.types.Fields.LARGE_STRING;
import static io.ktk.flink.state.types.Fields.NULL;
import static io.ktk.flink.state.types.Fields.STRING;
import static io.ktk.flink.state.types.Fields.TIME32_MS;
import static io.ktk.flink.state.types.Fields.TIME64_US;
import static io.ktk.flink.state.types.Fields.TIMESTAMP_NS;
import static io.ktk.flink.state.types.Fields.TIMESTAMP_US;
import static io.ktk.flink.state.types.Fields.TIMESTAMP_US_UTC;
import static io.ktk.flink.state.types.Fields.UINT16;
import static io.ktk.flink.state.types.Fields.UINT32;
import static io.ktk.flink.state.types.Fields.UINT64;
import static io.ktk.flink.state.types.Fields.UINT8;
import static io.ktk.flink.state.types.Fields.col;
import static io.ktk.flink.state.types.Fields.decimal;
import static io.ktk.flink.state.types.Fields.dictionary;
import static io.ktk.flink.state.types.Fields.item;
import static io.ktk.flink.state.types.Fields.largeList;
import static io.ktk.flink.state.types.Fields.list;
import static io.ktk.flink.state.types.Fields.notNull;
import static io.ktk.flink.state.types.Fields.struct;
import static io.ktk.flink.state.types.Fields.timestamp;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.testing.Python;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.UnionMode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArrowTypeNamesTest {

  @Test
  void leafTypesAreNamedAsPyarrowPrintsThem() {
    assertThat(ArrowTypeNames.name(INT64)).isEqualTo("int64");
    assertThat(ArrowTypeNames.name(UINT8)).isEqualTo("uint8");
    assertThat(ArrowTypeNames.name(FLOAT64)).isEqualTo("double");
    assertThat(ArrowTypeNames.name(FLOAT32)).isEqualTo("float");
    assertThat(ArrowTypeNames.name(FLOAT16)).isEqualTo("halffloat");
    assertThat(ArrowTypeNames.name(STRING)).isEqualTo("string");
    assertThat(ArrowTypeNames.name(LARGE_STRING)).isEqualTo("large_string");
    assertThat(ArrowTypeNames.name(BINARY)).isEqualTo("binary");
    assertThat(ArrowTypeNames.name(BOOL)).isEqualTo("bool");
    assertThat(ArrowTypeNames.name(DATE32)).isEqualTo("date32[day]");
    assertThat(ArrowTypeNames.name(DATE64)).isEqualTo("date64[ms]");
    assertThat(ArrowTypeNames.name(TIME32_MS)).isEqualTo("time32[ms]");
    assertThat(ArrowTypeNames.name(TIME64_US)).isEqualTo("time64[us]");
    assertThat(ArrowTypeNames.name(TIMESTAMP_US)).isEqualTo("timestamp[us]");
    assertThat(ArrowTypeNames.name(TIMESTAMP_US_UTC)).isEqualTo("timestamp[us, tz=UTC]");
    assertThat(ArrowTypeNames.name(decimal(5, 2))).isEqualTo("decimal128(5, 2)");
    assertThat(ArrowTypeNames.name(NULL)).isEqualTo("null");
  }

  @Test
  void nestedAndDictionaryTypesAreNamedWithTheirChildren() {
    assertThat(ArrowTypeNames.name(list("c", item(INT64)))).isEqualTo("list<item: int64>");
    assertThat(ArrowTypeNames.name(list("c", notNull("element", INT64)))).isEqualTo("list<element: int64 not null>");
    assertThat(ArrowTypeNames.name(struct("c", col("a", INT64), col("b", STRING))))
        .isEqualTo("struct<a: int64, b: string>");
    assertThat(ArrowTypeNames.name(dictionary(col("c", STRING), INT8, false)))
        .isEqualTo("dictionary<values=string, indices=int8, ordered=0>");
    assertThat(ArrowTypeNames.name(dictionary(list("c", item(INT8)), INT16, true)))
        .isEqualTo("dictionary<values=list<item: int8>, indices=int16, ordered=1>");
  }

  @Test
  void theFieldsOwnNullabilityIsNotPartOfItsTypeName() {
    assertThat(ArrowTypeNames.name(notNull("c", INT64))).isEqualTo("int64");
  }

  @Test
  void schemaIsOneLinePerColumn() {
    Schema schema = new Schema(List.of(notNull("a", INT64), col("b", STRING)));
    assertThat(ArrowTypeNames.name(schema)).isEqualTo("a: int64 not null\nb: string");
  }

  /** Independent reader: pyarrow prints the same schema, shipped to it as an Arrow IPC schema message. */
  @Test
  void namesMatchWhatPyarrowPrintsForTheSameSchema(@TempDir Path dir) throws IOException {
    List<Field> fields = new ArrayList<>();
    ArrowType[] leaves = {
        INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64, FLOAT16, FLOAT32, FLOAT64, BOOL, STRING,
        LARGE_STRING, BINARY, LARGE_BINARY, new ArrowType.FixedSizeBinary(16), NULL, DATE32, DATE64,
        new ArrowType.Time(TimeUnit.SECOND, 32), TIME32_MS, TIME64_US, new ArrowType.Time(TimeUnit.NANOSECOND, 64),
        timestamp(TimeUnit.SECOND, null), timestamp(TimeUnit.MILLISECOND, null), TIMESTAMP_US, TIMESTAMP_NS,
        TIMESTAMP_US_UTC, timestamp(TimeUnit.NANOSECOND, "Europe/Berlin"), decimal(5, 2), decimal(38, 10),
        new ArrowType.Decimal(40, 2, 256), new ArrowType.Duration(TimeUnit.MICROSECOND),
        new ArrowType.Interval(IntervalUnit.MONTH_DAY_NANO), new ArrowType.Interval(IntervalUnit.YEAR_MONTH),
        new ArrowType.Interval(IntervalUnit.DAY_TIME)};
    for (ArrowType leaf : leaves) {
      fields.add(col("c" + fields.size(), leaf));
    }
    fields.add(list("c" + fields.size(), item(INT64)));
    fields.add(list("c" + fields.size(), notNull("element", INT8)));
    fields.add(largeList("c" + fields.size(), item(STRING)));
    fields.add(new Field("c" + fields.size(), FieldType.nullable(new ArrowType.FixedSizeList(3)),
        List.of(item(INT8))));
    fields.add(list("c" + fields.size(), list("item", item(UINT16))));
    fields.add(struct("c" + fields.size(), col("a", INT64), notNull("b", STRING), list("l", item(BOOL))));
    fields.add(struct("c" + fields.size()));
    fields.add(dictionary(col("c" + fields.size(), STRING), INT8, false, 1));
    fields.add(dictionary(col("c" + fields.size(), INT8), INT16, true, 2));
    fields.add(dictionary(list("c" + fields.size(), item(INT8)), INT32, false, 3));
    fields.add(list("c" + fields.size(), dictionary(item(STRING), INT8, true, 4)));
    fields.add(new Field("c" + fields.size(), FieldType.nullable(new ArrowType.Map(false)),
        List.of(new Field("entries", FieldType.notNullable(ArrowType.Struct.INSTANCE),
            List.of(notNull("key", STRING), col("value", INT64))))));
    fields.add(new Field("c" + fields.size(), FieldType.nullable(new ArrowType.Map(true)),
        List.of(new Field("entries", FieldType.notNullable(ArrowType.Struct.INSTANCE),
            List.of(notNull("key", INT32), list("value", item(INT8)))))));
    fields.add(new Field("c" + fields.size(),
        FieldType.nullable(new ArrowType.Union(UnionMode.Sparse, new int[] {0, 1})),
        List.of(col("a", INT8), col("b", STRING))));
    Schema schema = new Schema(fields);

    Path file = dir.resolve("schema.arrow");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    MessageSerializer.serialize(new WriteChannel(Channels.newChannel(bytes)), schema);
    Files.write(file, bytes.toByteArray());
    String printed = Python.run(String.join("\n",
        "import sys, pyarrow as pa",
        "schema = pa.ipc.read_schema(pa.py_buffer(open(sys.argv[1], 'rb').read()))",
        "for field in schema:",
        "    print(str(field.type))"),
        file.toString());

    List<String> expected = schema.getFields().stream().map(ArrowTypeNames::name).toList();
    assertThat(printed.lines().toList()).containsExactlyElementsOf(expected);
  }
}
