package io.ktk.flink.state.parquet;

import static io.ktk.flink.state.parquet.TypeZoo.I64;
import static io.ktk.flink.state.parquet.TypeZoo.UTF8;
import static io.ktk.flink.state.parquet.TypeZoo.comparable;
import static io.ktk.flink.state.parquet.TypeZoo.struct;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.NoSuchObjectException;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ParquetRowsWriterTest {
  @TempDir Path dir;

  static Stream<Arguments> badValues() {
    return Stream.of(
        Arguments.of(Field.nullable("c", new ArrowType.Int(8, true)), 200L, "out of range [-128, 127]"),
        Arguments.of(Field.nullable("c", new ArrowType.Int(8, false)), -1L, "out of range [0, 255]"),
        Arguments.of(Field.nullable("c", I64), "12", "expected a Long"),
        Arguments.of(Field.nullable("c", new ArrowType.Decimal(5, 2, 128)), new BigDecimal("1234.5"), "more than 5 digits"),
        Arguments.of(Field.nullable("c", new ArrowType.Decimal(5, 2, 128)), new BigDecimal("1.234"), "more than 2 digits after"),
        Arguments.of(
            Field.nullable("c", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
            LocalDateTime.of(2020, 1, 1, 0, 0, 0, 1),
            "more precision"),
        Arguments.of(
            Field.nullable("c", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC")),
            LocalDateTime.of(2020, 1, 1, 0, 0),
            "expected a Instant"),
        Arguments.of(Field.nullable("c", new ArrowType.FixedSizeBinary(3)), new byte[2], "it has 2 bytes"),
        Arguments.of(Field.nullable("c", ArrowType.Null.INSTANCE), 1L, "holds only nulls"),
        Arguments.of(Field.notNullable("c", I64), null, "not nullable"),
        Arguments.of(
            new Field("c", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(Field.nullable("a", I64))),
            Map.of("b", 1L),
            "no member named b"),
        Arguments.of(
            new Field("c", FieldType.nullable(ArrowType.List.INSTANCE), List.of(Field.nullable("item", I64))),
            List.of(1L, "2"),
            "c.element"));
  }

  @ParameterizedTest
  @MethodSource("badValues")
  void aValueThatDoesNotFitItsColumnIsRefusedAndTheFileNeverAppears(Field field, Object value, String reason)
      throws IOException {
    LocalObjectStore store = new LocalObjectStore(dir);
    ParquetRowsWriter writer = create(store, "bad.parquet", new Schema(List.of(field)));
    writer.write(Arrays.asList(field.isNullable() ? null : (Object) 0L));

    assertThatThrownBy(() -> writer.write(Arrays.asList(value)))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("column c")
        .hasMessageContaining(reason);
    assertThatThrownBy(() -> writer.write(Arrays.asList((Object) null)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("an earlier write failed");
    writer.close();
    assertThat(store.head("bad.parquet")).as("a failed file never appears").isEmpty();
  }

  @Test
  void aRowOfTheWrongWidthIsRefused() throws IOException {
    LocalObjectStore store = new LocalObjectStore(dir);
    Schema schema = new Schema(List.of(Field.nullable("a", I64), Field.nullable("b", UTF8)));
    try (ParquetRowsWriter writer = create(store, "x.parquet", schema)) {
      assertThatThrownBy(() -> writer.write(List.of(1L)))
          .isInstanceOf(KtkValidationException.class)
          .hasMessageContaining("1 values")
          .hasMessageContaining("2 columns");
    }
    assertThat(store.head("x.parquet")).isEmpty();
  }

  @Test
  void theFileAppearsOnCloseAndNeverAfterAbort() throws IOException {
    LocalObjectStore store = new LocalObjectStore(dir);
    Schema schema = new Schema(List.of(Field.nullable("a", I64)));
    ParquetRowsWriter aborted = create(store, "a.parquet", schema);
    aborted.write(List.of(1L));
    aborted.abort();
    assertThat(store.head("a.parquet")).isEmpty();

    ParquetRowsWriter writer = create(store, "a.parquet", schema);
    writer.write(List.of(1L));
    assertThat(store.head("a.parquet")).as("invisible while writing").isEmpty();
    writer.close();
    assertThat(store.head("a.parquet")).isPresent();
    assertThat(writer.footer().getBlocks()).hasSize(1);
    assertThat(writer.rowCount()).isEqualTo(1);
  }

  @Test
  void truncatedEmptyAndNonParquetObjectsFailNamingTheKey() throws IOException {
    LocalObjectStore store = new LocalObjectStore(dir);
    Schema schema = new Schema(List.of(Field.nullable("a", I64), Field.nullable("s", UTF8)));
    try (ParquetRowsWriter writer = create(store, "good.parquet", schema)) {
      for (long i = 0; i < 1000; i++) {
        writer.write(List.of(i, "v" + i));
      }
    }
    byte[] good = store.get("good.parquet");
    store.put("cut/half.parquet", Arrays.copyOf(good, good.length / 2));
    store.put("cut/tail.parquet", Arrays.copyOf(good, good.length - 1));
    store.put("cut/empty.parquet", new byte[0]);
    store.put("cut/text.parquet", "a,b\n1,2\n".repeat(10).getBytes(StandardCharsets.UTF_8));
    for (String key : List.of("cut/half.parquet", "cut/tail.parquet", "cut/empty.parquet", "cut/text.parquet")) {
      assertThatThrownBy(() -> ParquetRowsReader.open(store, key).close())
          .as(key)
          .isInstanceOf(CorruptDatasetException.class)
          .hasMessageContaining(key);
    }

    byte[] damaged = good.clone();
    for (int i = 4; i < 60; i++) {
      damaged[i] = (byte) 0xA7;
    }
    store.put("cut/damaged.parquet", damaged);
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, "cut/damaged.parquet")) {
      assertThatThrownBy(() -> reader.readAll(List.of("a", "s")))
          .isInstanceOf(CorruptDatasetException.class)
          .hasMessageContaining("cut/damaged.parquet");
    }

    assertThatThrownBy(() -> ParquetRowsReader.open(store, "cut/missing.parquet"))
        .isInstanceOf(NoSuchObjectException.class)
        .hasMessageContaining("cut/missing.parquet");
  }

  @Test
  void noHadoopClassIsOnTheClasspath() {
    assertThatThrownBy(() -> Class.forName("org.apache.hadoop.conf.Configuration"))
        .isInstanceOf(ClassNotFoundException.class);
  }

  @Test
  void randomNestedValuesRoundTrip() throws IOException {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    Field inner = new Field("element", FieldType.nullable(ArrowType.List.INSTANCE), List.of(Field.nullable("item", UTF8)));
    Field member = new Field(
        "m",
        FieldType.nullable(ArrowType.Struct.INSTANCE),
        List.of(
            Field.nullable("k", I64),
            new Field("ts", FieldType.nullable(ArrowType.List.INSTANCE),
                List.of(Field.nullable("item", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"))))));
    Schema schema = new Schema(List.of(
        Field.nullable("id", I64),
        new Field("ll", FieldType.nullable(ArrowType.List.INSTANCE), List.of(inner)),
        new Field("ls", FieldType.nullable(ArrowType.List.INSTANCE), List.of(member)),
        Field.nullable("bin", ArrowType.Binary.INSTANCE)));
    List<List<Object>> rows = new ArrayList<>();
    for (long id = 0; id < 500; id++) {
      Object strings = maybe(random,
          () -> listOf(random, () -> maybe(random, () -> listOf(random, () -> maybe(random, () -> "s" + random.nextInt(9))))));
      Object structs = maybe(random, () -> listOf(random, () -> maybe(random, () -> randomMember(random))));
      Object bytes = maybe(random, () -> {
        byte[] b = new byte[random.nextInt(5)];
        random.nextBytes(b);
        return b;
      });
      rows.add(Arrays.asList(id, strings, structs, bytes));
    }
    LocalObjectStore store = new LocalObjectStore(dir);
    ParquetWriteOptions options = ParquetWriteOptions.defaults().withPageSizeBytes(1024).withRowGroupSizeBytes(8 << 10);
    try (ParquetRowsWriter writer = ParquetRowsWriter.create(store, "r.parquet", schema, Map.of(), options)) {
      for (List<Object> row : rows) {
        writer.write(row);
      }
    }
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, "r.parquet")) {
      assertThat(comparable(reader.readAll(List.of("id", "ll", "ls", "bin")))).as("seed " + seed).isEqualTo(comparable(rows));
    }
  }

  private static ParquetRowsWriter create(LocalObjectStore store, String key, Schema schema) throws IOException {
    return ParquetRowsWriter.create(store, key, schema, Map.of(), ParquetWriteOptions.defaults());
  }

  private static Map<String, Object> randomMember(Random random) {
    Object instants = maybe(random, () -> listOf(random, () -> maybe(random,
        () -> Instant.ofEpochSecond(random.nextInt(), random.nextInt(1_000_000) * 1000L))));
    return struct("k", maybe(random, random::nextLong), "ts", instants);
  }

  private static <T> T maybe(Random random, java.util.function.Supplier<T> value) {
    return random.nextInt(5) == 0 ? null : value.get();
  }

  private static List<Object> listOf(Random random, java.util.function.Supplier<Object> element) {
    List<Object> list = new ArrayList<>();
    int n = random.nextInt(4);
    for (int i = 0; i < n; i++) {
      list.add(element.get());
    }
    return list;
  }
}
