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
import static io.ktk.flink.state.types.Fields.timestamp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.KtkValidationException;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SchemaCompatibilityTest {

  private static void assertFits(Field committed, Field offered) {
    assertThatCode(() -> SchemaCompatibility.check("ds", schema(committed), schema(offered)))
        .doesNotThrowAnyException();
  }

  // --- What fits ---

  static Stream<Arguments> fittingPairs() {
    return Stream.of(
        Arguments.of("int8 into int64", col("c", INT64), col("c", INT8)),
        Arguments.of("int32 into int64", col("c", INT64), col("c", INT32)),
        Arguments.of("uint8 into uint64", col("c", UINT64), col("c", UINT8)),
        Arguments.of("float into double", col("c", FLOAT64), col("c", FLOAT32)),
        Arguments.of("halffloat into double", col("c", FLOAT64), col("c", FLOAT16)),
        Arguments.of("timestamp[ns] into timestamp[ns]", col("c", TIMESTAMP_NS), col("c", TIMESTAMP_NS)),
        // plateau's rule: naive timestamps of every unit are one type (its _common_metadata says ns)
        Arguments.of("timestamp[us] into timestamp[ns]", col("c", TIMESTAMP_NS), col("c", TIMESTAMP_US)),
        Arguments.of("timestamp[ns] into timestamp[us]", col("c", TIMESTAMP_US), col("c", TIMESTAMP_NS)),
        Arguments.of("timestamp[ms] into timestamp[us]", col("c", TIMESTAMP_US),
            col("c", timestamp(TimeUnit.MILLISECOND, null))),
        Arguments.of("timestamp[s] into timestamp[ns]", col("c", TIMESTAMP_NS),
            col("c", timestamp(TimeUnit.SECOND, null))),
        Arguments.of("list<timestamp[us]> into list<timestamp[ns]>", list("c", item(TIMESTAMP_NS)),
            list("c", item(TIMESTAMP_US))),
        Arguments.of("decimal into the same decimal", col("c", decimal(7, 4)), col("c", decimal(7, 4))),
        Arguments.of("dictionary of strings into string", col("c", STRING),
            dictionary(col("c", STRING), INT8, false)),
        Arguments.of("ordered dictionary with int32 indices into string", col("c", STRING),
            dictionary(col("c", STRING), INT32, true)),
        Arguments.of("dictionary of int8 into int64", col("c", INT64), dictionary(col("c", INT8), INT16, true)),
        Arguments.of("dictionary into a dictionary with other index type and order",
            dictionary(col("c", STRING), INT8, false), dictionary(col("c", STRING), INT32, true)),
        Arguments.of("list<int8> into list<int64>", list("c", item(INT64)), list("c", item(INT8))),
        Arguments.of("list<dictionary<int8>> into list<int64>", list("c", item(INT64)),
            list("c", dictionary(item(INT8), INT8, true))),
        Arguments.of("dictionary<list<int8>> into list<int64>", list("c", item(INT64)),
            dictionary(list("c", item(INT8)), INT8, true)),
        Arguments.of("list<list<uint8>> into list<list<uint64>>", list("c", list("item", item(UINT64))),
            list("c", list("item", item(UINT8)))),
        Arguments.of("string into large_string", col("c", LARGE_STRING), col("c", STRING)),
        Arguments.of("large_string into string", col("c", STRING), col("c", LARGE_STRING)),
        Arguments.of("large_binary into binary", col("c", BINARY), col("c", LARGE_BINARY)),
        Arguments.of("large_list<int16> into list<int64>", list("c", item(INT64)), largeList("c", item(INT16))),
        Arguments.of("not-null into nullable", col("c", INT64), notNull("c", INT8)),
        Arguments.of("nullable into not-null", notNull("c", INT64), col("c", INT8)),
        Arguments.of("list with a non-null element named 'element'", list("c", item(INT64)),
            list("c", notNull("element", INT32))),
        Arguments.of("null column into int64", col("c", INT64), col("c", NULL)),
        Arguments.of("null column into a struct", struct("c", col("a", STRING)), col("c", NULL)),
        Arguments.of("anything into a null column", col("c", NULL), col("c", UINT16)),
        Arguments.of("list<null> into list<string>", list("c", item(STRING)), list("c", item(NULL))),
        Arguments.of("identical structs", struct("c", col("a", INT64), col("b", STRING)),
            struct("c", col("a", INT64), col("b", STRING))),
        Arguments.of("struct with a null field", struct("c", col("a", INT64), col("b", STRING)),
            struct("c", col("a", INT64), col("b", NULL))),
        Arguments.of("struct with a large_string field and nullability differences",
            struct("c", notNull("a", STRING)), struct("c", col("a", LARGE_STRING))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fittingPairs")
  void compatibleColumnsAreAccepted(String scenario, Field committed, Field offered) {
    assertFits(committed, offered);
  }

  @Test
  void columnOrderDoesNotMatter() {
    assertThatCode(() -> SchemaCompatibility.check("ds", schema(col("a", INT64), col("b", STRING)),
        schema(col("b", STRING), col("a", INT8)))).doesNotThrowAnyException();
  }

  // --- What does not fit, with the rule ---

  static Stream<Arguments> incompatiblePairs() {
    return Stream.of(
        Arguments.of(col("c", INT64), col("c", UINT8), "signed and unsigned integers are different type classes"),
        Arguments.of(col("c", UINT64), col("c", INT64), "signed and unsigned integers are different type classes"),
        Arguments.of(col("c", INT64), col("c", FLOAT64), "integers and floats are different type classes"),
        Arguments.of(col("c", FLOAT64), col("c", INT8), "integers and floats are different type classes"),
        Arguments.of(col("c", FLOAT64), col("c", UINT64), "integers and floats are different type classes"),
        Arguments.of(col("c", STRING), col("c", BINARY), "strings and binary data are different type classes"),
        Arguments.of(col("c", BINARY), col("c", LARGE_STRING), "binary data and strings are different type classes"),
        Arguments.of(col("c", BOOL), col("c", INT8), "booleans and integers are different type classes"),
        Arguments.of(col("c", UINT64), col("c", BOOL), "booleans and integers are different type classes"),
        Arguments.of(col("c", TIMESTAMP_US_UTC), col("c", timestamp(TimeUnit.NANOSECOND, "UTC")),
            "timestamps with a time zone of different units are different types"),
        Arguments.of(col("c", timestamp(TimeUnit.NANOSECOND, "Europe/Berlin")),
            col("c", timestamp(TimeUnit.MICROSECOND, "Europe/Berlin")),
            "timestamps with a time zone of different units are different types"),
        Arguments.of(col("c", TIMESTAMP_NS), col("c", TIMESTAMP_US_UTC),
            "timestamps without and with a time zone are different types"),
        Arguments.of(col("c", TIMESTAMP_US), col("c", TIMESTAMP_US_UTC),
            "timestamps without and with a time zone are different types"),
        Arguments.of(col("c", TIMESTAMP_US_UTC), col("c", timestamp(TimeUnit.MICROSECOND, "Europe/Berlin")),
            "timestamps with different time zones are different types"),
        Arguments.of(col("c", decimal(5, 2)), col("c", decimal(6, 2)), "decimals of different precision or scale"),
        Arguments.of(col("c", decimal(6, 2)), col("c", decimal(6, 4)), "decimals of different precision or scale"),
        Arguments.of(col("c", DATE32), col("c", DATE64), "date32 and date64 are different types"),
        Arguments.of(col("c", TIME64_US), col("c", TIME32_MS), "times of day of different units or widths"),
        Arguments.of(col("c", TIMESTAMP_US), col("c", DATE32), "timestamps and dates are different type classes"),
        Arguments.of(col("c", STRING), col("c", INT64), "strings and signed integers are different type classes"),
        Arguments.of(col("c", INT64), dictionary(col("c", UINT8), INT8, false),
            "signed and unsigned integers are different type classes"),
        Arguments.of(list("c", item(INT64)), col("c", INT64), "lists and signed integers are different type classes"),
        Arguments.of(struct("c", col("a", INT64)), list("c", item(INT64)),
            "structs and lists are different type classes"));
  }

  @ParameterizedTest(name = "{0} vs {1}")
  @MethodSource("incompatiblePairs")
  void incompatibleColumnsAreRejectedWithTheRule(Field committed, Field offered, String rule) {
    assertThatThrownBy(() -> SchemaCompatibility.check("sales", schema(col("id", INT64), committed),
        schema(offered, col("id", INT64))))
        .isInstanceOf(IncompatibleSchemaException.class)
        .isInstanceOf(KtkValidationException.class)
        .hasMessageStartingWith("Cannot append to dataset 'sales': column 'c' has type ")
        .hasMessageContaining(rule);
  }

  @Test
  void messageNamesDatasetColumnBothTypesTheNormalizedTypeAndTheRule() {
    assertThatThrownBy(() -> SchemaCompatibility.check("sales", schema(col("qty", UINT64)), schema(col("qty", INT32))))
        .isInstanceOf(IncompatibleSchemaException.class)
        .hasMessage("Cannot append to dataset 'sales': column 'qty' has type uint64 in the committed schema but"
            + " the batch offers int32 (normalized int64); signed and unsigned integers are different type classes")
        .satisfies(e -> {
          IncompatibleSchemaException incompatible = (IncompatibleSchemaException) e;
          assertThat(incompatible.dataset()).isEqualTo("sales");
          assertThat(incompatible.column()).contains("qty");
        });
  }

  @Test
  void messageOmitsTheNormalizedTypeWhenNormalizationChangesNothing() {
    assertThatThrownBy(() -> SchemaCompatibility.check("sales", schema(col("s", STRING)), schema(col("s", BINARY))))
        .hasMessage("Cannot append to dataset 'sales': column 's' has type string in the committed schema but"
            + " the batch offers binary; strings and binary data are different type classes");
  }

  @Test
  void dictionaryBatchIsNamedWithItsDictionaryAndItsNormalizedValues() {
    assertThatThrownBy(() -> SchemaCompatibility.check("sales", schema(col("s", INT64)),
        schema(dictionary(col("s", STRING), INT8, false))))
        .hasMessageContaining("the batch offers dictionary<values=string, indices=int8, ordered=0> (normalized"
            + " string); signed integers and strings are different type classes");
  }

  @Test
  void listElementMismatchNamesTheElement() {
    assertThatThrownBy(() -> SchemaCompatibility.check("sales", schema(list("tags", item(UINT64))),
        schema(list("tags", item(INT8)))))
        .isInstanceOf(IncompatibleSchemaException.class)
        .hasMessage("Cannot append to dataset 'sales': column 'tags' has type list<item: uint64> in the committed"
            + " schema but the batch offers list<item: int8> (normalized list<item: int64>); at 'tags[]': signed"
            + " and unsigned integers are different type classes");
  }

  @Test
  void structFieldsMustHaveTheSameNamesInTheSameOrder() {
    Field committed = struct("s", col("a", INT64), col("b", STRING));
    assertThatThrownBy(() -> SchemaCompatibility.check("ds", schema(committed),
        schema(struct("s", col("b", STRING), col("a", INT64)))))
        .isInstanceOf(IncompatibleSchemaException.class)
        .hasMessageContaining(
            "struct fields must have the same names in the same order (committed [a, b], offered [b, a])");
    assertThatThrownBy(() -> SchemaCompatibility.check("ds", schema(committed),
        schema(struct("s", col("a", INT64)))))
        .hasMessageContaining("(committed [a, b], offered [a])");
  }

  @Test
  void typesInsideStructsAreNotNormalized() {
    assertThatThrownBy(() -> SchemaCompatibility.check("ds", schema(struct("s", col("a", INT64))),
        schema(struct("s", col("a", INT8)))))
        .isInstanceOf(IncompatibleSchemaException.class)
        .hasMessageContaining("column 's' has type struct<a: int64> in the committed schema but the batch offers"
            + " struct<a: int8>; at 's.a': types inside a struct are not normalized, so int64 and int8 are"
            + " different types");
  }

  @Test
  void structFieldOfAnotherClassNamesTheField() {
    assertThatThrownBy(() -> SchemaCompatibility.check("ds", schema(struct("s", col("a", INT64))),
        schema(struct("s", col("a", UINT8)))))
        .hasMessageContaining("at 's.a': signed and unsigned integers are different type classes");
  }

  @Test
  void missingColumnIsNamed() {
    assertThatThrownBy(() -> SchemaCompatibility.check("sales", schema(col("a", INT64), col("b", STRING)),
        schema(col("a", INT64))))
        .isInstanceOf(IncompatibleSchemaException.class)
        .hasMessage("Cannot append to dataset 'sales': the batch lacks column 'b' of the committed schema; a batch"
            + " must have exactly the committed columns (committed: columns 'a', 'b')")
        .satisfies(e -> assertThat(((IncompatibleSchemaException) e).column()).contains("b"));
  }

  @Test
  void extraColumnIsNamed() {
    assertThatThrownBy(() -> SchemaCompatibility.check("sales", schema(col("a", INT64)),
        schema(col("a", INT64), col("z", STRING))))
        .isInstanceOf(IncompatibleSchemaException.class)
        .hasMessageContaining("the batch has column 'z' that the committed schema does not have");
  }

  @Test
  void missingAndExtraColumnsAreNamedTogether() {
    assertThatThrownBy(() -> SchemaCompatibility.check("sales", schema(col("a", INT64), col("b", INT64)),
        schema(col("a", INT64), col("x", INT64), col("y", INT64))))
        .hasMessageContaining("the batch lacks column 'b' of the committed schema and the batch has columns 'x', 'y'"
            + " that the committed schema does not have")
        .satisfies(e -> assertThat(((IncompatibleSchemaException) e).column()).isEmpty());
  }

  @Test
  void nullColumnDoesNotExcuseAMissingColumn() {
    assertThatThrownBy(() -> SchemaCompatibility.check("sales", schema(col("a", NULL), col("b", NULL)),
        schema(col("a", NULL))))
        .hasMessageContaining("the batch lacks column 'b'");
  }

  @Test
  void duplicateBatchColumnIsRejected() {
    assertThatThrownBy(() -> SchemaCompatibility.check("sales", schema(col("a", INT64)),
        schema(col("a", INT64), col("a", INT8))))
        .isInstanceOf(IncompatibleSchemaException.class)
        .hasMessage("Cannot append to dataset 'sales': the batch has column 'a' twice");
  }

  @Test
  void duplicateCommittedColumnIsACorruptDataset() {
    assertThatThrownBy(() -> SchemaCompatibility.check("sales", schema(col("a", INT64), col("a", INT64)),
        schema(col("a", INT64))))
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageContaining("dataset 'sales'")
        .hasMessageContaining("column 'a' appears twice");
  }

  // --- merge ---

  @Test
  void mergeKeepsTheCommittedOrderTypesAndMetadata() {
    Schema committed = new Schema(List.of(col("b", INT64), col("a", LARGE_STRING)), Map.of("pandas", "{}"));
    Schema merged = SchemaCompatibility.merge("ds", committed, schema(col("a", STRING), notNull("b", INT8)));
    assertThat(merged).isEqualTo(committed);
  }

  @Test
  void mergeNormalizesTheCommittedSchema() {
    Schema merged = SchemaCompatibility.merge("ds", schema(col("a", INT32), dictionary(col("s", STRING), INT8, false)),
        schema(col("a", INT64), col("s", STRING)));
    assertThat(merged).isEqualTo(schema(col("a", INT64), col("s", STRING)));
  }

  @Test
  void aNaiveNanosecondColumnFromPlateauIsCommittedAsMicroseconds() {
    Schema merged = SchemaCompatibility.merge("ds", schema(col("ts", TIMESTAMP_NS)), schema(col("ts", TIMESTAMP_US)));
    assertThat(merged).isEqualTo(schema(col("ts", TIMESTAMP_US)));
  }

  @Test
  void committedNullColumnTakesTheBatchsNormalizedType() {
    Schema merged = SchemaCompatibility.merge("ds", schema(col("id", INT64), col("x", NULL)),
        schema(col("id", INT64), notNull("x", UINT16)));
    assertThat(merged).isEqualTo(schema(col("id", INT64), col("x", UINT64)));
  }

  @Test
  void committedNullColumnTakesANormalizedListFromADictionary() {
    Schema merged = SchemaCompatibility.merge("ds", schema(col("x", NULL)),
        schema(dictionary(list("x", item(INT8)), INT8, true)));
    assertThat(merged).isEqualTo(schema(list("x", item(INT64))));
  }

  @Test
  void batchNullColumnLeavesTheCommittedType() {
    Schema merged = SchemaCompatibility.merge("ds", schema(col("x", TIMESTAMP_US)), schema(col("x", NULL)));
    assertThat(merged).isEqualTo(schema(col("x", TIMESTAMP_US)));
  }

  @Test
  void committedListOfNullTakesTheBatchsElementType() {
    Schema merged = SchemaCompatibility.merge("ds", schema(list("x", item(NULL))),
        schema(list("x", item(FLOAT32))));
    assertThat(merged).isEqualTo(schema(list("x", item(FLOAT64))));
  }

  @Test
  void committedStructFieldOfNullTakesTheBatchsFieldType() {
    Schema merged = SchemaCompatibility.merge("ds", schema(struct("s", col("a", INT64), col("b", NULL))),
        schema(struct("s", col("a", INT64), col("b", STRING))));
    assertThat(merged).isEqualTo(schema(struct("s", col("a", INT64), col("b", STRING))));
  }

  @Test
  void mergedNullsThenRejectAnotherClass() {
    Schema first = SchemaCompatibility.merge("ds", schema(col("x", NULL)), schema(col("x", INT32)));
    assertThatThrownBy(() -> SchemaCompatibility.check("ds", first, schema(col("x", ArrowType.Utf8.INSTANCE))))
        .hasMessageContaining("column 'x' has type int64 in the committed schema but the batch offers string;"
            + " signed integers and strings are different type classes");
  }
}
