package io.ktk.flink.sink.committable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.metadata.IndexValue;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

public class FileBatchSerializerTest {
  private static final String SAMPLE_V1 = "/serializer/file-batch-v1.bin";
  private static final String SAMPLE_V1_VALUES = "/serializer/file-batch-v1-values.bin";
  private static final String SAMPLE_V2 = "/serializer/file-batch-v2.bin";
  private static final String SAMPLE_V2_VALUES = "/serializer/file-batch-v2-values.bin";
  /** 2025-11-22T10:00:00.123Z, the write time of the version 2 samples. */
  private static final long WRITTEN_AT = 1_763_805_600_123L;
  private static final FileBatchSerializer SERIALIZER = new FileBatchSerializer();

  /**
   * The batch whose version 1 bytes are kept in {@value #SAMPLE_V1} (write time unknown); with a
   * write time, its version 2 bytes are in {@value #SAMPLE_V2}.
   */
  public static FileBatch sample() {
    Schema logical = new Schema(List.of(
        nullable("p", ArrowType.Utf8.INSTANCE),
        nullable("id", new ArrowType.Int(64, true)),
        nullable("v", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
        nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null))));
    Schema full = new Schema(logical.getFields().subList(1, 4));
    Schema withoutValues = new Schema(List.of(full.getFields().get(0), nullable("v", ArrowType.Null.INSTANCE),
        full.getFields().get(2)));
    List<DataFile> files = List.of(
        new DataFile("p=a/0123456789abcdef0123456789abcdef", 10, 2048, full),
        new DataFile("p=b%2Fc/fedcba9876543210fedcba9876543210", 3, 1024, withoutValues),
        new DataFile("p=a/00000000000000000000000000000001", 1, 512, full));
    Map<IndexValue, List<String>> ids = new LinkedHashMap<>();
    ids.put(IndexValue.of(7L), List.of("p=a/0123456789abcdef0123456789abcdef", "p=b%2Fc/fedcba9876543210fedcba9876543210"));
    ids.put(IndexValue.of(-1L), List.of("p=a/00000000000000000000000000000001"));
    return new FileBatch("events", "6f1c2a9e-0000-4000-8000-000000000001", 42, logical, List.of("p"), List.of("id"),
        files, Map.of("id", ids), FileBatch.UNKNOWN_WRITE_TIME);
  }

  /**
   * A batch with an index value of every type, whose version 1 bytes are kept in {@value
   * #SAMPLE_V1_VALUES} and, with a write time, its version 2 bytes in {@value #SAMPLE_V2_VALUES}:
   * version 1 tagged strings and booleans differently.
   */
  static FileBatch valuesSample() {
    String label = "p=a/0123456789abcdef0123456789abcdef";
    Schema schema = new Schema(List.of(nullable("p", ArrowType.Utf8.INSTANCE), nullable("x", ArrowType.Utf8.INSTANCE)));
    Map<IndexValue, List<String>> values = new LinkedHashMap<>();
    for (Object value : List.of(1L, -0.0, Double.NaN, true, "ünï", new byte[] {0, (byte) 255, 1},
        LocalDate.of(2020, 2, 29), LocalDateTime.of(2021, 1, 1, 0, 0, 0, 123_456_000),
        Instant.parse("1969-12-31T23:59:59.999999Z"), LocalTime.of(23, 59, 59, 999_999_000),
        new BigDecimal("-12345678901234567890.1234"), false, "")) {
      values.put(IndexValue.of(value), List.of(label));
    }
    return new FileBatch("d", "w", 3, schema, List.of("p"), List.of("x"), List.of(new DataFile(label, 1, 1, null)),
        Map.of("x", values), FileBatch.UNKNOWN_WRITE_TIME);
  }

  public static FileBatch writtenAt(FileBatch batch, long millis) {
    return new FileBatch(batch.dataset(), batch.writerId(), batch.checkpointId(), batch.schema(),
        batch.partitionColumns(), batch.indexColumns(), batch.files(), batch.index(), millis);
  }

  @Test
  void versionOneBytesStillRead() throws IOException {
    byte[] bytes;
    try (InputStream in = getClass().getResourceAsStream(SAMPLE_V1)) {
      assertThat(in).as(SAMPLE_V1).isNotNull();
      bytes = in.readAllBytes();
    }
    FileBatch restored = SERIALIZER.deserialize(1, bytes);
    assertThat(restored).isEqualTo(sample());
    assertThat(restored.writtenAtMillis()).as("version 1 knows no write time").isEqualTo(FileBatch.UNKNOWN_WRITE_TIME);
  }

  @Test
  void versionOneIndexValuesOfEveryTypeStillReadWithTheirOwnTags() throws IOException {
    FileBatch restored = SERIALIZER.deserialize(1, resource(SAMPLE_V1_VALUES));
    assertSameValues(restored, valuesSample());
    assertThat(restored.index().get("x").keySet())
        .contains(IndexValue.of("ünï"), IndexValue.of(""), IndexValue.of(true), IndexValue.of(false));
  }

  @Test
  void versionTwoBytesStillRead() throws IOException {
    FileBatch batch = writtenAt(sample(), WRITTEN_AT);
    byte[] bytes = resource(SAMPLE_V2);
    assertThat(SERIALIZER.deserialize(2, bytes)).isEqualTo(batch);
    assertThat(SERIALIZER.serialize(batch)).as("version 2 bytes are stable").isEqualTo(bytes);

    FileBatch values = writtenAt(valuesSample(), WRITTEN_AT);
    byte[] valueBytes = resource(SAMPLE_V2_VALUES);
    assertSameValues(SERIALIZER.deserialize(2, valueBytes), values);
    assertThat(SERIALIZER.serialize(values)).as("version 2 bytes are stable").isEqualTo(valueBytes);
  }

  @Test
  void versionTwoWritesValuesWithTheSharedCodecAndTheWriteTimeAfterTheCheckpointId() throws IOException {
    String label = "p=a/0123456789abcdef0123456789abcdef";
    Schema schema = new Schema(List.of(nullable("p", ArrowType.Utf8.INSTANCE), nullable("x", ArrowType.Utf8.INSTANCE)));
    FileBatch batch = new FileBatch("d", "w", 3, schema, List.of("p"), List.of("x"),
        List.of(new DataFile(label, 1, 1, null)), Map.of("x", Map.of(IndexValue.of("s"), List.of(label))), WRITTEN_AT);
    byte[] bytes = SERIALIZER.serialize(batch);
    String hex = HexFormat.of().formatHex(bytes);
    // dataset "d", writer "w", checkpoint 3, then the write time
    assertThat(hex).startsWith("0000000164" + "0000000177" + "0000000000000003" + "0000019aab01997b");
    // the index: column "x", one value: tag 3 (String) "s", one file: number 0
    assertThat(hex).endsWith("00000001" + "0000000178" + "00000001" + "030000000173" + "00000001" + "00000000");
  }

  @Test
  void everyIndexValueTypeRoundTrips() throws IOException {
    String label = "p=a/0123456789abcdef0123456789abcdef";
    Schema schema = new Schema(List.of(nullable("p", ArrowType.Utf8.INSTANCE), nullable("x", ArrowType.Utf8.INSTANCE)));
    List<Object> values = List.of(1L, -0.0, Double.NaN, true, "ünï", LocalDate.of(2020, 2, 29),
        LocalDateTime.of(2021, 1, 1, 0, 0, 0, 123_456_000), Instant.parse("1969-12-31T23:59:59.999999Z"),
        LocalTime.of(23, 59, 59, 999_999_000), new BigDecimal("-12345678901234567890.1234"));
    for (Object value : values) {
      FileBatch batch = new FileBatch("d", "w", -1, schema, List.of("p"), List.of("x"),
          List.of(new DataFile(label, 1, 1, null)), Map.of("x", Map.of(IndexValue.of(value), List.of(label))), WRITTEN_AT);
      FileBatch back = SERIALIZER.deserialize(FileBatchSerializer.VERSION, SERIALIZER.serialize(batch));
      assertThat(back).as("value %s", value).isEqualTo(batch);
    }
    byte[] bytes = {0, (byte) 255, 1};
    FileBatch binary = new FileBatch("d", "w", 3, schema, List.of("p"), List.of("x"),
        List.of(new DataFile(label, 1, 1, null)), Map.of("x", Map.of(IndexValue.of(bytes), List.of(label))), WRITTEN_AT);
    Object value = SERIALIZER.deserialize(2, SERIALIZER.serialize(binary)).index().get("x").keySet().iterator().next()
        .value();
    assertThat((byte[]) value).containsExactly(bytes);
  }

  @Test
  void otherVersionsAndDamagedBytesAreRefused() throws IOException {
    byte[] bytes = SERIALIZER.serialize(writtenAt(sample(), WRITTEN_AT));
    assertThatThrownBy(() -> SERIALIZER.deserialize(3, bytes))
        .isInstanceOf(IOException.class).hasMessageContaining("Unrecognized version or corrupt state");
    assertThatThrownBy(() -> SERIALIZER.deserialize(2, Arrays.copyOf(bytes, bytes.length - 3)))
        .isInstanceOf(IOException.class).hasMessageContaining("Unrecognized version or corrupt state");
    assertThatThrownBy(() -> SERIALIZER.deserialize(2, Arrays.copyOf(bytes, bytes.length + 1)))
        .isInstanceOf(IOException.class).hasMessageContaining("Unrecognized version or corrupt state");
    assertThatThrownBy(() -> SERIALIZER.deserialize(1, bytes))
        .as("version 2 bytes read as version 1").isInstanceOf(IOException.class)
        .hasMessageContaining("Unrecognized version or corrupt state");
  }

  @Test
  void combiningKeepsEveryFileAndMergesIndexValues() {
    FileBatch a = sample();
    FileBatch b = new FileBatch("events", "0-smaller-writer", -1, a.schema(), List.of("p"), List.of("id"),
        List.of(new DataFile("p=c/11111111111111111111111111111111", 5, 100, null)),
        Map.of("id", Map.of(IndexValue.of(7L), List.of("p=c/11111111111111111111111111111111"))), WRITTEN_AT);
    FileBatch combined = FileBatch.combine(List.of(a, b), 9);
    assertThat(combined.checkpointId()).isEqualTo(9);
    assertThat(combined.writerId()).isEqualTo("0-smaller-writer");
    assertThat(combined.files()).hasSize(4);
    assertThat(combined.rows()).isEqualTo(19);
    assertThat(combined.index().get("id").get(IndexValue.of(7L))).containsExactly("p=a/0123456789abcdef0123456789abcdef",
        "p=b%2Fc/fedcba9876543210fedcba9876543210", "p=c/11111111111111111111111111111111");
    assertThat(combined.partitions()).containsExactly("p=a", "p=b%2Fc", "p=c");
    assertThat(combined.writtenAtMillis()).as("one batch of unknown age makes the combination's unknown")
        .isEqualTo(FileBatch.UNKNOWN_WRITE_TIME);
    assertThat(FileBatch.combine(List.of(writtenAt(a, WRITTEN_AT + 5), b), 9).writtenAtMillis())
        .as("the earliest write time").isEqualTo(WRITTEN_AT);
  }

  @Test
  @EnabledIfSystemProperty(named = "ktk.write-samples", matches = "true")
  void writeSample() throws IOException {
    // Bytes of older versions are kept as they are: this serializer cannot write them any more.
    Path target = Path.of("src/test/resources" + SAMPLE_V2);
    Files.createDirectories(target.getParent());
    Files.write(target, SERIALIZER.serialize(writtenAt(sample(), WRITTEN_AT)));
    Files.write(Path.of("src/test/resources" + SAMPLE_V2_VALUES), SERIALIZER.serialize(writtenAt(valuesSample(),
        WRITTEN_AT)));
  }

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = FileBatchSerializerTest.class.getResourceAsStream(name)) {
      assertThat(in).as(name).isNotNull();
      return in.readAllBytes();
    }
  }

  /** Equal batches: same files, write time and index values (binary ones by content), in the same order. */
  private static void assertSameValues(FileBatch actual, FileBatch expected) {
    assertThat(actual.writtenAtMillis()).isEqualTo(expected.writtenAtMillis());
    assertThat(actual.files()).isEqualTo(expected.files());
    Map<IndexValue, List<String>> actualValues = new LinkedHashMap<>(actual.index().get("x"));
    Map<IndexValue, List<String>> expectedValues = new LinkedHashMap<>(expected.index().get("x"));
    assertThat(actualValues).isEqualTo(expectedValues);
    assertThat(List.copyOf(actualValues.keySet())).as("same order").isEqualTo(List.copyOf(expectedValues.keySet()));
  }

  private static Field nullable(String name, ArrowType type) {
    return new Field(name, FieldType.nullable(type), List.of());
  }
}
