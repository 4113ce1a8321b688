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
import static io.ktk.flink.state.types.Fields.LARGE_STRING;
import static io.ktk.flink.state.types.Fields.NULL;
import static io.ktk.flink.state.types.Fields.STRING;
import static io.ktk.flink.state.types.Fields.TIME32_MS;
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
import static io.ktk.flink.state.types.Fields.schema;
import static io.ktk.flink.state.types.Fields.struct;
import static io.ktk.flink.state.types.TypeNormalization.normalize;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class TypeNormalizationTest {

  // --- The type system documentation's normalization table, line by line ---

  @Test
  void normInt8IsInt64() {
    assertThat(normalize(col("c", INT8))).isEqualTo(col("c", INT64));
  }

  @Test
  void normInt64IsInt64() {
    assertThat(normalize(col("c", INT64))).isEqualTo(col("c", INT64));
  }

  @Test
  void normUint8IsUint64() {
    assertThat(normalize(col("c", UINT8))).isEqualTo(col("c", UINT64));
  }

  @Test
  void normUint64IsUint64() {
    assertThat(normalize(col("c", UINT64))).isEqualTo(col("c", UINT64));
  }

  /** The documentation writes "norm(float8)"; Arrow has no float8, its smallest float is float16. */
  @Test
  void normSmallestFloatIsFloat64() {
    assertThat(normalize(col("c", FLOAT16))).isEqualTo(col("c", FLOAT64));
  }

  @Test
  void normFloat64IsFloat64() {
    assertThat(normalize(col("c", FLOAT64))).isEqualTo(col("c", FLOAT64));
  }

  @Test
  void normListOfInt8IsListOfInt64() {
    assertThat(normalize(list("c", item(INT8)))).isEqualTo(list("c", item(INT64)));
  }

  @Test
  void normListOfInt64IsListOfInt64() {
    assertThat(normalize(list("c", item(INT64)))).isEqualTo(list("c", item(INT64)));
  }

  @Test
  void normListOfListOfInt8IsListOfListOfInt64() {
    assertThat(normalize(list("c", list("item", item(INT8))))).isEqualTo(list("c", list("item", item(INT64))));
  }

  @Test
  void normListOfStringIsListOfString() {
    assertThat(normalize(list("c", item(STRING)))).isEqualTo(list("c", item(STRING)));
  }

  @Test
  void normListOfDictionaryOfInt8IsListOfInt64() {
    Field offered = list("c", dictionary(item(INT8), INT8, true));
    assertThat(normalize(offered)).isEqualTo(list("c", item(INT64)));
  }

  @Test
  void normDictionaryOfStringIsString() {
    assertThat(normalize(dictionary(col("c", STRING), INT8, false))).isEqualTo(col("c", STRING));
  }

  @Test
  void normDictionaryOfInt8WithInt16IndicesIsInt64() {
    assertThat(normalize(dictionary(col("c", INT8), INT16, true))).isEqualTo(col("c", INT64));
  }

  @Test
  void normDictionaryOfListOfInt8IsListOfInt64() {
    Field offered = dictionary(list("c", item(INT8)), INT8, true);
    assertThat(normalize(offered)).isEqualTo(list("c", item(INT64)));
  }

  // --- The rest of each type class ---

  static Stream<Arguments> widths() {
    return Stream.of(
        Arguments.of(INT8, INT64), Arguments.of(INT16, INT64), Arguments.of(INT32, INT64),
        Arguments.of(INT64, INT64), Arguments.of(UINT8, UINT64), Arguments.of(UINT16, UINT64),
        Arguments.of(UINT32, UINT64), Arguments.of(UINT64, UINT64), Arguments.of(FLOAT16, FLOAT64),
        Arguments.of(FLOAT32, FLOAT64), Arguments.of(FLOAT64, FLOAT64));
  }

  @ParameterizedTest
  @MethodSource("widths")
  void numbersWidenToSixtyFourBitsKeepingTheirClass(ArrowType offered, ArrowType expected) {
    assertThat(normalize(offered)).isEqualTo(expected);
    assertThat(normalize(col("c", offered))).isEqualTo(col("c", expected));
  }

  static Stream<ArrowType> unchangedTypes() {
    return Stream.of(BOOL, STRING, LARGE_STRING, BINARY, NULL, DATE32, DATE64, TIME32_MS, TIMESTAMP_US,
        TIMESTAMP_US_UTC, new ArrowType.Timestamp(TimeUnit.NANOSECOND, "UTC"),
        new ArrowType.Timestamp(TimeUnit.MILLISECOND, "Europe/Berlin"), decimal(5, 2), decimal(38, 0),
        new ArrowType.FixedSizeBinary(16));
  }

  @ParameterizedTest
  @MethodSource("unchangedTypes")
  void otherTypesStayAsTheyAre(ArrowType type) {
    assertThat(normalize(type)).isEqualTo(type);
    assertThat(normalize(col("c", type))).isEqualTo(col("c", type));
  }

  @ParameterizedTest
  @EnumSource(TimeUnit.class)
  void timestampsWithoutAZoneAreMicrosecondsWhateverTheirUnit(TimeUnit unit) {
    // plateau treats naive timestamps of every unit as one type; the files hold microseconds
    ArrowType naive = new ArrowType.Timestamp(unit, null);
    assertThat(normalize(naive)).isEqualTo(TIMESTAMP_US);
    assertThat(normalize(list("c", item(naive)))).isEqualTo(list("c", item(TIMESTAMP_US)));
  }

  @Test
  void dictionaryOfTimestampsIsTheNormalizedTimestamp() {
    assertThat(normalize(dictionary(col("c", TIMESTAMP_NS), INT32, false))).isEqualTo(col("c", TIMESTAMP_US));
    assertThat(normalize(dictionary(col("c", TIMESTAMP_US_UTC), INT32, false))).isEqualTo(col("c", TIMESTAMP_US_UTC));
  }

  @Test
  void structsAreNotNormalizedInside() {
    Field struct = struct("s", col("a", INT8), dictionary(col("b", STRING), INT8, false), list("l", item(INT16)));
    assertThat(normalize(struct)).isEqualTo(struct);
  }

  @Test
  void listOfStructKeepsTheStructAsItIs() {
    assertThat(normalize(list("c", struct("item", col("a", INT8)))))
        .isEqualTo(list("c", struct("item", col("a", INT8))));
  }

  @Test
  void largeListKeepsItsContainerButNormalizesItsElements() {
    assertThat(normalize(largeList("c", item(UINT8)))).isEqualTo(largeList("c", item(UINT64)));
  }

  @Test
  void listElementsBecomeNullableItemsAsPyarrowBuildsThem() {
    Field parquetStyle = list("c", notNull("element", INT16));
    assertThat(normalize(parquetStyle)).isEqualTo(list("c", item(INT64)));
  }

  @Test
  void fieldNameNullabilityAndMetadataAreKept() {
    Field field = new Field("qty", new FieldType(false, INT32, null, Map.of("k", "v")), List.of());
    assertThat(normalize(field))
        .isEqualTo(new Field("qty", new FieldType(false, INT64, null, Map.of("k", "v")), List.of()));
  }

  @Test
  void schemaKeepsColumnOrderAndMetadata() {
    Schema schema = new Schema(
        List.of(col("b", FLOAT32), dictionary(col("a", STRING), INT8, false), list("c", item(UINT16))),
        Map.of("pandas", "{}"));
    assertThat(normalize(schema)).isEqualTo(new Schema(
        List.of(col("b", FLOAT64), col("a", STRING), list("c", item(UINT64))), Map.of("pandas", "{}")));
  }

  @Test
  void normalizationIsIdempotent() {
    Schema schema = schema(col("a", INT8), dictionary(list("b", dictionary(item(FLOAT32), INT8, true)), INT16, false),
        struct("s", col("x", UINT8)), largeList("l", item(INT16)));
    assertThat(normalize(normalize(schema))).isEqualTo(normalize(schema));
  }
}
