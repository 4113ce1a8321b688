package io.ktk.flink.state.types;

import static io.ktk.flink.state.types.Fields.BINARY;
import static io.ktk.flink.state.types.Fields.BOOL;
import static io.ktk.flink.state.types.Fields.DATE32;
import static io.ktk.flink.state.types.Fields.FLOAT32;
import static io.ktk.flink.state.types.Fields.FLOAT64;
import static io.ktk.flink.state.types.Fields.INT16;
import static io.ktk.flink.state.types.Fields.INT32;
import static io.ktk.flink.state.types.Fields.INT64;
import static io.ktk.flink.state.types.Fields.INT8;
import static io.ktk.flink.state.types.Fields.NULL;
import static io.ktk.flink.state.types.Fields.STRING;
import static io.ktk.flink.state.types.Fields.TIME64_US;
import static io.ktk.flink.state.types.Fields.TIMESTAMP_US;
import static io.ktk.flink.state.types.Fields.TIMESTAMP_US_UTC;
import static io.ktk.flink.state.types.Fields.col;
import static io.ktk.flink.state.types.Fields.decimal;
import static io.ktk.flink.state.types.Fields.item;
import static io.ktk.flink.state.types.Fields.list;
import static io.ktk.flink.state.types.Fields.notNull;
import static io.ktk.flink.state.types.Fields.schema;
import static io.ktk.flink.state.types.Fields.struct;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.testing.Python;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SchemaInferenceTest {

  private static List<Object> values(Object... values) {
    return Arrays.asList(values);
  }

  private static Map<String, Object> map(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  // --- Schema-less inference ---

  static Stream<Arguments> javaValues() {
    return Stream.of(
        Arguments.of(5L, INT64), Arguments.of(5, INT32), Arguments.of((short) 5, INT16), Arguments.of((byte) 5, INT8),
        Arguments.of(1.5, FLOAT64), Arguments.of(1.5f, FLOAT32), Arguments.of(true, BOOL), Arguments.of("x", STRING),
        Arguments.of(new byte[] {1}, BINARY), Arguments.of(new BigDecimal("110.12"), decimal(5, 2)),
        Arguments.of(LocalDate.of(2020, 1, 2), DATE32), Arguments.of(LocalTime.of(3, 4), TIME64_US),
        Arguments.of(LocalDateTime.of(2020, 1, 2, 3, 4), TIMESTAMP_US),
        Arguments.of(Instant.parse("2020-01-02T03:04:05Z"), TIMESTAMP_US_UTC));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("javaValues")
  void javaValuesMapAsPyarrowMapsPythonValues(Object value, ArrowType expected) {
    assertThat(SchemaInference.inferField("c", values(null, value, null))).isEqualTo(col("c", expected));
  }

  @Test
  void columnWithoutValuesIsNull() {
    assertThat(SchemaInference.inferField("c", values(null, null))).isEqualTo(col("c", NULL));
    assertThat(SchemaInference.inferField("c", List.of())).isEqualTo(col("c", NULL));
  }

  @Test
  void decimalsWidenToTheLargestIntegerPartAndScale() {
    // The type system documentation's pandas example: 110.12 and 20.00 give decimal(5, 2); 123.45 and 1.2345 give (7, 4) in pyarrow.
    assertThat(SchemaInference.inferField("c", values(new BigDecimal("110.12"), new BigDecimal("20.00"))))
        .isEqualTo(col("c", decimal(5, 2)));
    assertThat(SchemaInference.inferField("c", values(new BigDecimal("123.45"), new BigDecimal("1.2345"))))
        .isEqualTo(col("c", decimal(7, 4)));
    assertThat(SchemaInference.inferField("c", values(new BigDecimal("1E+3")))).isEqualTo(col("c", decimal(4, 0)));
    assertThat(SchemaInference.inferField("c", values(new BigDecimal("0.001")))).isEqualTo(col("c", decimal(3, 3)));
  }

  @Test
  void decimalsBeyondDecimal128AreRejected() {
    assertThatThrownBy(() -> SchemaInference.inferField("price",
        values(new BigDecimal("1" + "0".repeat(30)), new BigDecimal("0." + "1".repeat(10)))))
        .isInstanceOf(InvalidValueException.class)
        .hasMessage("Cannot infer the type of column 'price': its decimals need 31 integer digits and 10 fractional"
            + " digits, more than decimal128's precision of 38");
  }

  /** Independent reader: pyarrow infers the decimal type of the same values; seeded, prints the failing case. */
  @Test
  void decimalInferenceAgreesWithPyarrow() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    List<List<BigDecimal>> groups = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      List<BigDecimal> group = new ArrayList<>();
      int size = 1 + random.nextInt(4);
      for (int j = 0; j < size; j++) {
        BigInteger unscaled = new BigInteger(1 + random.nextInt(120), random);
        group.add(new BigDecimal(random.nextBoolean() ? unscaled : unscaled.negate(), random.nextInt(16) - 4));
      }
      groups.add(group);
    }
    String input = groups.stream()
        .map(group -> group.stream().map(BigDecimal::toString).collect(Collectors.joining(" ")))
        .collect(Collectors.joining("\n"));
    String printed = Python.run(String.join("\n",
        "import sys, decimal, pyarrow as pa",
        "for line in open(sys.argv[1]).read().splitlines():",
        "    print(pa.infer_type([decimal.Decimal(v) for v in line.split()]))"),
        writeTemp(input));
    List<String> pyarrowTypes = printed.lines().toList();
    assertThat(pyarrowTypes).hasSize(groups.size());
    // Both outcomes must occur, or the comparison would not cover the precision limit.
    assertThat(pyarrowTypes).anyMatch(type -> type.startsWith("decimal128"))
        .anyMatch(type -> type.startsWith("decimal256"));
    for (int i = 0; i < groups.size(); i++) {
      List<BigDecimal> group = groups.get(i);
      String expected = pyarrowTypes.get(i);
      String description = "seed " + seed + ", values " + group;
      if (expected.startsWith("decimal128")) {
        assertThat(ArrowTypeNames.name(SchemaInference.inferField("c", group))).as(description).isEqualTo(expected);
      } else {
        assertThatThrownBy(() -> SchemaInference.inferField("c", group)).as(description)
            .isInstanceOf(InvalidValueException.class);
      }
    }
  }

  private static String writeTemp(String content) {
    try {
      Path file = Files.createTempFile("ktk-decimals-", ".txt");
      file.toFile().deleteOnExit();
      Files.writeString(file, content);
      return file.toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void integerBoxesWidenToTheWidestAndFloatsToDouble() {
    assertThat(SchemaInference.inferField("c", values((byte) 1, 2, 3L, (short) 4))).isEqualTo(col("c", INT64));
    assertThat(SchemaInference.inferField("c", values((byte) 1, (short) 4))).isEqualTo(col("c", INT16));
    assertThat(SchemaInference.inferField("c", values(1.5f, 2.5))).isEqualTo(col("c", FLOAT64));
  }

  @Test
  void mixedTypesNameTheColumnAndBothTypes() {
    assertThatThrownBy(() -> SchemaInference.inferField("qty", values(1L, null, "two")))
        .isInstanceOf(InvalidValueException.class)
        .hasMessage("Cannot infer the type of column 'qty': it holds values of type int64 and values of type string;"
            + " all values of a column must have one type");
    assertThatThrownBy(() -> SchemaInference.inferField("n", values(1, 2.0)))
        .hasMessageContaining("int32 and values of type double");
    assertThatThrownBy(() -> SchemaInference.inferField("t",
        values(LocalDateTime.of(2020, 1, 1, 0, 0), Instant.EPOCH)))
        .hasMessageContaining("timestamp[us] and values of type timestamp[us, tz=UTC]");
    assertThatThrownBy(() -> SchemaInference.inferField("b", values(true, 1L)))
        .hasMessageContaining("bool and values of type int64");
  }

  @Test
  void listsInferTheirElementsAndAllowNullElementsAndNullLists() {
    assertThat(SchemaInference.inferField("tags", values(values(1L, null), null, values(2L))))
        .isEqualTo(list("tags", item(INT64)));
    assertThat(SchemaInference.inferField("tags", values(List.of(), values((Object) null))))
        .isEqualTo(list("tags", item(NULL)));
    assertThat(SchemaInference.inferField("tags", values(List.of(values("a")), List.of(List.of()))))
        .isEqualTo(list("tags", list("item", item(STRING))));
  }

  @Test
  void mixedListElementsNameTheElementPath() {
    assertThatThrownBy(() -> SchemaInference.inferField("tags", values(values(1L), values("a"))))
        .isInstanceOf(InvalidValueException.class)
        .hasMessage("Cannot infer the type of column 'tags': at 'tags[]' it holds values of type int64 and values of"
            + " type string; all values of a column must have one type");
    assertThatThrownBy(() -> SchemaInference.inferField("tags", values(values(1L), 1L)))
        .hasMessageContaining("list<item: int64> and values of type int64");
  }

  @Test
  void mapsBecomeStructsWithFieldsInOrderOfFirstAppearance() {
    assertThat(SchemaInference.inferField("s", values(map("b", 1L), null, map("a", "x", "b", null))))
        .isEqualTo(struct("s", col("b", INT64), col("a", STRING)));
  }

  @Test
  void structFieldsOfTwoTypesNameTheField() {
    assertThatThrownBy(() -> SchemaInference.inferField("s", values(map("a", 1L), map("a", "x"))))
        .isInstanceOf(InvalidValueException.class)
        .hasMessageContaining("column 's': at 's.a' it holds values of type int64 and values of type string");
  }

  @Test
  void mapsWithoutStringKeysAreRejected() {
    assertThatThrownBy(() -> SchemaInference.inferField("m", values(Map.of(1, 2))))
        .isInstanceOf(InvalidValueException.class)
        .hasMessageContaining("column 'm'")
        .hasMessageContaining("only maps with String keys become structs");
  }

  @Test
  void valuesOfOtherJavaClassesAreRejected() {
    assertThatThrownBy(() -> SchemaInference.inferField("u", values(UUID.fromString(
        "00000000-0000-0000-0000-000000000001"))))
        .isInstanceOf(InvalidValueException.class)
        .hasMessageContaining("column 'u'")
        .hasMessageContaining("of Java class java.util.UUID has no Arrow type");
  }

  @Test
  void schemaFollowsTheMapOrder() {
    Map<String, List<Object>> columns = new LinkedHashMap<>();
    columns.put("z", values(1L));
    columns.put("a", values(null, "x"));
    columns.put("n", values((Object) null));
    assertThat(SchemaInference.inferSchema(columns))
        .isEqualTo(schema(col("z", INT64), col("a", STRING), col("n", NULL)));
  }
}
