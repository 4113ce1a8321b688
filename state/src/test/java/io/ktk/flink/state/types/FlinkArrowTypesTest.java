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
import static io.ktk.flink.state.types.Fields.schema;
import static io.ktk.flink.state.types.Fields.struct;
import static io.ktk.flink.state.types.Fields.timestamp;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.KtkValidationException;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.UnionMode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FlinkArrowTypesTest {

  private static LogicalType flink(DataType type) {
    return type.getLogicalType();
  }

  // --- Flink to Arrow ---

  static Stream<Arguments> flinkLeafTypes() {
    return Stream.of(
        Arguments.of(DataTypes.TINYINT(), INT8), Arguments.of(DataTypes.SMALLINT(), INT16),
        Arguments.of(DataTypes.INT(), INT32), Arguments.of(DataTypes.BIGINT(), INT64),
        Arguments.of(DataTypes.FLOAT(), FLOAT32), Arguments.of(DataTypes.DOUBLE(), FLOAT64),
        Arguments.of(DataTypes.BOOLEAN(), BOOL), Arguments.of(DataTypes.CHAR(3), STRING),
        Arguments.of(DataTypes.VARCHAR(10), STRING), Arguments.of(DataTypes.STRING(), STRING),
        Arguments.of(DataTypes.BINARY(16), BINARY), Arguments.of(DataTypes.VARBINARY(5), BINARY),
        Arguments.of(DataTypes.BYTES(), BINARY), Arguments.of(DataTypes.DATE(), DATE32),
        Arguments.of(DataTypes.TIME(0), TIME64_US), Arguments.of(DataTypes.TIME(3), TIME64_US),
        Arguments.of(DataTypes.TIMESTAMP(0), TIMESTAMP_US), Arguments.of(DataTypes.TIMESTAMP(3), TIMESTAMP_US),
        Arguments.of(DataTypes.TIMESTAMP(6), TIMESTAMP_US), Arguments.of(DataTypes.TIMESTAMP(9), TIMESTAMP_US),
        Arguments.of(DataTypes.TIMESTAMP_LTZ(3), TIMESTAMP_US_UTC),
        Arguments.of(DataTypes.TIMESTAMP_LTZ(6), TIMESTAMP_US_UTC),
        Arguments.of(DataTypes.DECIMAL(5, 2), decimal(5, 2)), Arguments.of(DataTypes.DECIMAL(38, 10), decimal(38, 10)),
        Arguments.of(DataTypes.DECIMAL(20, 0), decimal(20, 0)));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("flinkLeafTypes")
  void leafTypesMapAndKeepTheirNullability(DataType type, ArrowType expected) {
    assertThat(FlinkArrowTypes.toField("c", flink(type.nullable()))).isEqualTo(col("c", expected));
    assertThat(FlinkArrowTypes.toField("c", flink(type.notNull()))).isEqualTo(notNull("c", expected));
  }

  @Test
  void nullTypeIsArrowNull() {
    assertThat(FlinkArrowTypes.toField("c", flink(DataTypes.NULL()))).isEqualTo(col("c", NULL));
  }

  @Test
  void arraysAreListsWithAnItemElement() {
    assertThat(FlinkArrowTypes.toField("tags", flink(DataTypes.ARRAY(DataTypes.STRING()))))
        .isEqualTo(list("tags", item(STRING)));
    assertThat(FlinkArrowTypes.toField("m",
        flink(DataTypes.ARRAY(DataTypes.ARRAY(DataTypes.BIGINT().notNull())).notNull())))
        .isEqualTo(new Field("m", FieldType.notNullable(ArrowType.List.INSTANCE),
            List.of(list("item", notNull("item", INT64)))));
  }

  @Test
  void rowsAreStructsWithTheRowsFieldNames() {
    DataType row = DataTypes.ROW(
        DataTypes.FIELD("a", DataTypes.INT().notNull()),
        DataTypes.FIELD("b", DataTypes.ROW(DataTypes.FIELD("c", DataTypes.STRING()))),
        DataTypes.FIELD("d", DataTypes.ARRAY(DataTypes.ROW(DataTypes.FIELD("e", DataTypes.TIMESTAMP_LTZ(3))))));
    assertThat(FlinkArrowTypes.toField("r", flink(row))).isEqualTo(struct("r",
        notNull("a", INT32),
        struct("b", col("c", STRING)),
        list("d", struct("item", col("e", TIMESTAMP_US_UTC)))));
  }

  @Test
  void rowTypeBecomesASchemaInFieldOrder() {
    RowType rowType = (RowType) flink(DataTypes.ROW(
        DataTypes.FIELD("id", DataTypes.BIGINT().notNull()),
        DataTypes.FIELD("name", DataTypes.STRING()),
        DataTypes.FIELD("day", DataTypes.DATE()),
        DataTypes.FIELD("price", DataTypes.DECIMAL(10, 2)),
        DataTypes.FIELD("tags", DataTypes.ARRAY(DataTypes.INT()))));
    assertThat(FlinkArrowTypes.toSchema(rowType)).isEqualTo(schema(notNull("id", INT64), col("name", STRING),
        col("day", DATE32), col("price", decimal(10, 2)), list("tags", item(INT32))));
  }

  static Stream<Arguments> unsupportedFlinkTypes() {
    return Stream.of(
        Arguments.of(DataTypes.MULTISET(DataTypes.INT()), "MULTISET<INT>"),
        Arguments.of(DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()), "MAP<STRING, INT>"),
        Arguments.of(DataTypes.TIMESTAMP_WITH_TIME_ZONE(3), "TIMESTAMP(3) WITH TIME ZONE"),
        Arguments.of(DataTypes.INTERVAL(DataTypes.DAY(), DataTypes.SECOND(3)), "INTERVAL DAY(2) TO SECOND(3)"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("unsupportedFlinkTypes")
  void unsupportedFlinkTypesNameTheColumnAndType(DataType type, String summary) {
    assertThatThrownBy(() -> FlinkArrowTypes.toField("m", flink(type)))
        .isInstanceOf(UnsupportedTypeException.class)
        .isInstanceOf(KtkValidationException.class)
        .hasMessageStartingWith("Cannot map column 'm' to an Arrow type: it has Flink type " + summary
            + ", which Kartothek datasets do not support; supported are TINYINT");
  }

  @Test
  void unsupportedNestedTypeNamesThePath() {
    DataType row = DataTypes.ROW(DataTypes.FIELD("ok", DataTypes.INT()),
        DataTypes.FIELD("bag", DataTypes.ARRAY(DataTypes.MULTISET(DataTypes.INT()))));
    assertThatThrownBy(() -> FlinkArrowTypes.toField("r", flink(row)))
        .isInstanceOf(UnsupportedTypeException.class)
        .hasMessageStartingWith("Cannot map column 'r' to an Arrow type: its field 'r.bag[]' has Flink type"
            + " MULTISET<INT>, which Kartothek datasets do not support");
  }

  // --- Arrow to Flink ---

  static Stream<Arguments> arrowLeafTypes() {
    return Stream.of(
        Arguments.of(INT8, DataTypes.TINYINT()), Arguments.of(INT16, DataTypes.SMALLINT()),
        Arguments.of(INT32, DataTypes.INT()), Arguments.of(INT64, DataTypes.BIGINT()),
        Arguments.of(UINT8, DataTypes.SMALLINT()), Arguments.of(UINT16, DataTypes.INT()),
        Arguments.of(UINT32, DataTypes.BIGINT()), Arguments.of(UINT64, DataTypes.DECIMAL(20, 0)),
        Arguments.of(FLOAT16, DataTypes.FLOAT()), Arguments.of(FLOAT32, DataTypes.FLOAT()),
        Arguments.of(FLOAT64, DataTypes.DOUBLE()), Arguments.of(BOOL, DataTypes.BOOLEAN()),
        Arguments.of(STRING, DataTypes.STRING()), Arguments.of(LARGE_STRING, DataTypes.STRING()),
        Arguments.of(ArrowType.Utf8View.INSTANCE, DataTypes.STRING()),
        Arguments.of(BINARY, DataTypes.BYTES()), Arguments.of(LARGE_BINARY, DataTypes.BYTES()),
        Arguments.of(new ArrowType.FixedSizeBinary(16), DataTypes.BINARY(16)),
        Arguments.of(DATE32, DataTypes.DATE()), Arguments.of(DATE64, DataTypes.DATE()),
        Arguments.of(new ArrowType.Time(TimeUnit.SECOND, 32), DataTypes.TIME(0)),
        Arguments.of(TIME32_MS, DataTypes.TIME(3)), Arguments.of(TIME64_US, DataTypes.TIME(6)),
        Arguments.of(new ArrowType.Time(TimeUnit.NANOSECOND, 64), DataTypes.TIME(9)),
        Arguments.of(timestamp(TimeUnit.SECOND, null), DataTypes.TIMESTAMP(0)),
        Arguments.of(timestamp(TimeUnit.MILLISECOND, null), DataTypes.TIMESTAMP(3)),
        Arguments.of(TIMESTAMP_US, DataTypes.TIMESTAMP(6)), Arguments.of(TIMESTAMP_NS, DataTypes.TIMESTAMP(9)),
        Arguments.of(TIMESTAMP_US_UTC, DataTypes.TIMESTAMP_LTZ(6)),
        Arguments.of(timestamp(TimeUnit.MILLISECOND, "Europe/Berlin"), DataTypes.TIMESTAMP_LTZ(3)),
        Arguments.of(decimal(5, 2), DataTypes.DECIMAL(5, 2)),
        Arguments.of(new ArrowType.Decimal(38, 0, 256), DataTypes.DECIMAL(38, 0)));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("arrowLeafTypes")
  void arrowLeafTypesMapForReadingAndKeepTheirNullability(ArrowType type, DataType expected) {
    assertThat(FlinkArrowTypes.toLogicalType(col("c", type))).isEqualTo(flink(expected.nullable()));
    assertThat(FlinkArrowTypes.toLogicalType(notNull("c", type))).isEqualTo(flink(expected.notNull()));
  }

  @Test
  void arrowNullIsFlinkNull() {
    assertThat(FlinkArrowTypes.toLogicalType(col("c", NULL))).isEqualTo(flink(DataTypes.NULL()));
  }

  @Test
  void dictionaryFieldReadsAsItsValues() {
    assertThat(FlinkArrowTypes.toLogicalType(dictionary(col("c", STRING), INT8, false)))
        .isEqualTo(flink(DataTypes.STRING()));
  }

  @Test
  void nestedArrowTypesBecomeArraysAndRows() {
    Field field = struct("s", notNull("a", UINT8), largeList("l", notNull("element", TIMESTAMP_US)),
        list("nested", struct("item", col("x", BOOL))));
    assertThat(FlinkArrowTypes.toLogicalType(field)).isEqualTo(flink(DataTypes.ROW(
        DataTypes.FIELD("a", DataTypes.SMALLINT().notNull()),
        DataTypes.FIELD("l", DataTypes.ARRAY(DataTypes.TIMESTAMP(6).notNull())),
        DataTypes.FIELD("nested", DataTypes.ARRAY(DataTypes.ROW(DataTypes.FIELD("x", DataTypes.BOOLEAN())))))));
  }

  @Test
  void schemaBecomesANotNullRowType() {
    assertThat(FlinkArrowTypes.toRowType(schema(notNull("id", INT64), col("v", FLOAT64))))
        .isEqualTo(flink(DataTypes.ROW(DataTypes.FIELD("id", DataTypes.BIGINT().notNull()),
            DataTypes.FIELD("v", DataTypes.DOUBLE())).notNull()));
  }

  @Test
  void unsupportedArrowTypesNameTheColumnAndType() {
    Field map = new Field("m", FieldType.nullable(new ArrowType.Map(false)),
        List.of(new Field("entries", FieldType.notNullable(ArrowType.Struct.INSTANCE),
            List.of(notNull("key", STRING), col("value", INT64)))));
    assertThatThrownBy(() -> FlinkArrowTypes.toLogicalType(map))
        .isInstanceOf(UnsupportedTypeException.class)
        .hasMessage("Cannot map column 'm' to a Flink type: it has Arrow type map<string, int64>, which Kartothek"
            + " datasets do not support");
    assertThatThrownBy(() -> FlinkArrowTypes.toLogicalType(col("d", new ArrowType.Duration(TimeUnit.SECOND))))
        .hasMessageContaining("column 'd'").hasMessageContaining("duration[s]");
    assertThatThrownBy(() -> FlinkArrowTypes.toLogicalType(col("x", new ArrowType.Decimal(40, 2, 256))))
        .hasMessageContaining("decimal256(40, 2)");
    Field union = new Field("u", FieldType.nullable(new ArrowType.Union(UnionMode.Dense, new int[] {0})),
        List.of(col("a", INT8)));
    assertThatThrownBy(() -> FlinkArrowTypes.toLogicalType(struct("s", union)))
        .hasMessage("Cannot map column 's' to a Flink type: its field 's.u' has Arrow type dense_union<a: int8=0>,"
            + " which Kartothek datasets do not support");
  }

  // --- Both ways ---

  @Test
  void typesWithAnExactArrowCounterpartRoundTrip() {
    List<DataType> types = List.of(DataTypes.TINYINT(), DataTypes.SMALLINT(), DataTypes.INT().notNull(),
        DataTypes.BIGINT(), DataTypes.FLOAT(), DataTypes.DOUBLE(), DataTypes.BOOLEAN(), DataTypes.STRING(),
        DataTypes.BYTES(), DataTypes.DATE(), DataTypes.TIME(6), DataTypes.TIMESTAMP(6), DataTypes.TIMESTAMP_LTZ(6),
        DataTypes.DECIMAL(12, 3), DataTypes.ARRAY(DataTypes.ARRAY(DataTypes.INT().notNull())),
        DataTypes.ROW(DataTypes.FIELD("a", DataTypes.STRING()),
            DataTypes.FIELD("b", DataTypes.ARRAY(DataTypes.DATE()))));
    for (DataType type : types) {
      assertThat(FlinkArrowTypes.toLogicalType(FlinkArrowTypes.toField("c", flink(type)))).as("%s", type)
          .isEqualTo(flink(type));
    }
  }
}
