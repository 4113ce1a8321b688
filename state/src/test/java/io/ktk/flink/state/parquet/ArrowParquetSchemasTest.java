package io.ktk.flink.state.parquet;

import static io.ktk.flink.state.parquet.TypeZoo.I64;
import static io.ktk.flink.state.parquet.TypeZoo.UTF8;
import static io.ktk.flink.state.parquet.TypeZoo.struct;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.KtkValidationException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;

class ArrowParquetSchemasTest {
  @Test
  void decimalsUseTheFewestBytesThatHoldTheirPrecision() {
    // bytes -> the highest precision they hold: floor(log10(2^(8 * bytes - 1) - 1))
    int[] maxPrecision = {0, 2, 4, 6, 9, 11, 14, 16, 18, 21, 23, 26, 28, 31, 33, 35, 38};
    for (int bytes = 1; bytes <= 16; bytes++) {
      for (int p = maxPrecision[bytes - 1] + 1; p <= maxPrecision[bytes]; p++) {
        assertThat(ArrowParquetSchemas.decimalByteWidth(p)).as("precision " + p).isEqualTo(bytes);
      }
    }
  }

  @Test
  void typesParquetCannotHoldAreRefusedNamingTheColumn() {
    Field duration = Field.nullable("took", new ArrowType.Duration(TimeUnit.SECOND));
    Field emptyStruct = new Field("nothing", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of());
    Field nested = new Field("outer", FieldType.nullable(ArrowType.List.INSTANCE), List.of(duration));
    assertThatThrownBy(() -> ArrowParquetSchemas.toParquet(new Schema(List.of(duration))))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("took")
        .hasMessageContaining("not supported");
    assertThatThrownBy(() -> ArrowParquetSchemas.toParquet(new Schema(List.of(emptyStruct))))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("nothing");
    assertThatThrownBy(() -> ArrowParquetSchemas.toParquet(new Schema(List.of(nested))))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("outer.element");
  }

  @Test
  void parquetTypesWithoutAnArrowCounterpartAreReportedAsUnreadable() {
    MessageType map = MessageTypeParser.parseMessageType(
        "message schema { optional group m (MAP) {"
            + " repeated group key_value { required binary key (STRING); optional int32 value; } } }");
    MessageType repeated = MessageTypeParser.parseMessageType("message schema { repeated int32 r; }");
    assertThatThrownBy(() -> ArrowParquetSchemas.toArrow(map))
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageContaining("column m");
    assertThatThrownBy(() -> ArrowParquetSchemas.toArrow(repeated))
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageContaining("column r");
  }

  @Test
  void legacyTwoLevelListsReadAsListsOfRequiredElements() throws IOException {
    MessageType legacy = MessageTypeParser.parseMessageType(
        "message schema {"
            + " optional group l (LIST) { repeated int32 array; }"
            + " optional group m (LIST) { repeated group array { optional binary s (STRING); optional int64 n; } }"
            + "}");
    Schema expectedSchema = new Schema(List.of(
        new Field("l", FieldType.nullable(ArrowType.List.INSTANCE),
            List.of(Field.notNullable("element", new ArrowType.Int(32, true)))),
        new Field("m", FieldType.nullable(ArrowType.List.INSTANCE),
            List.of(new Field("element", FieldType.notNullable(ArrowType.Struct.INSTANCE),
                List.of(Field.nullable("s", UTF8), Field.nullable("n", I64)))))));
    assertThat(ArrowParquetSchemas.toArrow(legacy)).isEqualTo(expectedSchema);

    BytesOutputFile file = new BytesOutputFile("legacy.parquet");
    writeLegacy(file, legacy);
    try (ParquetRowsReader reader = ParquetRowsReader.open(new BytesInputFile("legacy.parquet", file.toByteArray()))) {
      assertThat(reader.readAll(List.of("l", "m"))).containsExactly(
          List.of(List.of(1L, 2L), List.of(struct("s", "a", "n", 7L))),
          Arrays.asList(null, List.of()));
    }
  }

  /** Writes two rows with parquet-column directly: our writer only writes standard lists. */
  private static void writeLegacy(BytesOutputFile file, MessageType schema) throws IOException {
    ParquetProperties properties = ParquetProperties.builder().build();
    ParquetFileWriter writer =
        new ParquetFileWriter(file, schema, ParquetFileWriter.Mode.CREATE, 1 << 20, 0, 64, 64, false);
    writer.start();
    ColumnChunkPageWriteStore pages = ColumnChunkPageWriteStore.builder()
        .withCompressorProvider(c -> new ParquetCodecs().getCompressor(CompressionCodecName.UNCOMPRESSED))
        .withSchema(schema)
        .withAllocator(properties.getAllocator())
        .withColumnIndexTruncateLength(64)
        .build();
    ColumnWriteStore columns = properties.newColumnWriteStore(schema, pages, pages);
    RecordConsumer records = new ColumnIOFactory().getColumnIO(schema).getRecordWriter(columns);
    records.startMessage();
    records.startField("l", 0);
    records.startGroup();
    records.startField("array", 0);
    records.addInteger(1);
    records.addInteger(2);
    records.endField("array", 0);
    records.endGroup();
    records.endField("l", 0);
    records.startField("m", 1);
    records.startGroup();
    records.startField("array", 0);
    records.startGroup();
    records.startField("s", 0);
    records.addBinary(Binary.fromString("a"));
    records.endField("s", 0);
    records.startField("n", 1);
    records.addLong(7);
    records.endField("n", 1);
    records.endGroup();
    records.endField("array", 0);
    records.endGroup();
    records.endField("m", 1);
    records.endMessage();
    records.startMessage();
    records.startField("m", 1);
    records.startGroup();
    records.endGroup();
    records.endField("m", 1);
    records.endMessage();
    records.flush();
    columns.close();
    writer.startBlock(2);
    pages.flushToFileWriter(writer);
    writer.endBlock();
    writer.end(Map.of());
  }

  @Test
  void arrowSchemaOfAParquetSchemaNamesListElementsElement() {
    Schema schema = new Schema(List.of(
        new Field("l", FieldType.nullable(ArrowType.List.INSTANCE), List.of(Field.nullable("item", I64))),
        Field.nullable("t", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "Europe/Berlin"))));
    List<Field> back = new ArrayList<>(ArrowParquetSchemas.toArrow(ArrowParquetSchemas.toParquet(schema)).getFields());
    assertThat(back.get(0).getChildren().get(0)).isEqualTo(Field.nullable("element", I64));
    assertThat(back.get(1).getType())
        .as("Parquet keeps only that a timestamp is UTC-adjusted, not its zone")
        .isEqualTo(new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"));
  }
}
