package io.ktk.flink.state.rowformat;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The worked examples of arrow-row's documentation (as the polars-row crate carries it) and a
 * few more, as exact bytes. Expected bytes are written by hand from the format description.
 */
class RowFormatExamplesTest {
  private static final ArrowType UINT8 = new ArrowType.Int(8, false);
  private static final ArrowType UINT32 = new ArrowType.Int(32, false);
  private static final ArrowType INT8 = new ArrowType.Int(8, true);
  private static final ArrowType INT32 = new ArrowType.Int(32, true);
  private static final ArrowType FLOAT32 = new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
  private static final ArrowType FLOAT64 = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);

  private static BufferAllocator allocator;

  @BeforeAll
  static void openAllocator() {
    allocator = new RootAllocator();
  }

  @AfterAll
  static void closeAllocator() {
    allocator.close();
  }

  @Test
  void unsignedIntegersAreAValidByteAndTheBigEndianValue() {
    assertThat(encode(SortField.of(UINT32, false, true), 3L, 258L, 23423L, null)).containsExactly(
        "01 00 00 00 03", "01 00 00 01 02", "01 00 00 5B 7F", "00 00 00 00 00");
  }

  @Test
  void signedIntegersHaveTheirSignBitFlipped() {
    assertThat(encode(SortField.of(INT32, false, true), 5L, -5L))
        .containsExactly("01 80 00 00 05", "01 7F FF FF FB");
  }

  @Test
  void variableLengthExamplesOfTheSeedWithFourByteBlocks() {
    assertThat(blocksOfFour("MEEP")).isEqualTo("02 4D 45 45 50 04");
    assertThat(blocksOfFour("")).isEqualTo("01");
    assertThat(hex(VariableEncoding.encodeOrdered(null, false, true, 4))).isEqualTo("00");
    // D e f e | n e s t | r a t i | o n: three full blocks, then two bytes padded to four
    assertThat(blocksOfFour("Defenestration")).isEqualTo(
        "02 44 65 66 65 FF 6E 65 73 74 FF 72 61 74 69 FF 6F 6E 00 00 02");
    // The documentation's drawing of "Defenestration" shows five blocks, 'r a t r' 'a t i o' 'n': it
    // spells "Defenestratration". Those exact bytes are the encoding of that spelling.
    assertThat(blocksOfFour("Defenestratration")).isEqualTo(
        "02 44 65 66 65 FF 6E 65 73 74 FF 72 61 74 72 FF 61 74 69 6F FF 6E 00 00 00 01");
  }

  @Test
  void stringsUseBlocksOf32BytesWithContinuationAndLengthBytes() {
    SortField field = SortField.of(ArrowType.Utf8.INSTANCE, false, true);
    String a32 = "a".repeat(32);
    List<String> rows = encode(field, "MEEP", a32, a32 + "b", "", null);
    assertThat(rows.get(0)).isEqualTo("02 4D 45 45 50 " + zeros(28) + "04");
    assertThat(rows.get(1)).isEqualTo("02 " + "61 ".repeat(32) + "20");
    assertThat(rows.get(2)).isEqualTo("02 " + "61 ".repeat(32) + "FF 62 " + zeros(31) + "01");
    assertThat(rows.subList(3, 5)).containsExactly("01", "00");
  }

  @Test
  void listElementsAreConcatenatedThenWrittenAsVariableLengthBytes() {
    Field list = new Field("l", FieldType.nullable(ArrowType.List.INSTANCE),
        List.of(RandomColumns.scalar("e", UINT8)));
    List<String> rows = encode(new SortField(list, false, true),
        List.of(1L, 2L, 3L), Arrays.asList(1L, null), List.of(), null);
    // the documented element rows: 1 = 01 01, 2 = 01 02, 3 = 01 03, null = 00 00; its canonical
    // byte arrays start with their concatenation, which is all this format keeps of them
    assertThat(rows.get(0)).isEqualTo("02 01 01 01 02 01 03 " + zeros(26) + "06");
    assertThat(rows.get(1)).isEqualTo("02 01 01 00 00 " + zeros(28) + "04");
    assertThat(rows.subList(2, 4)).containsExactly("01", "00");
  }

  @Test
  void listIsOrderedBeforeItsExtensionByNullElements() {
    // apache/arrow-rs#5807: with the length and count suffix of the polars-row text, [null] sorted after
    // [null, null] because the element lengths were compared with the second element
    Field list = new Field("l", FieldType.nullable(ArrowType.List.INSTANCE),
        List.of(RandomColumns.scalar("e", INT8)));
    RowConverter converter = RowConverter.ordered(List.of(new SortField(list, false, true)));
    try (FieldVector v = ArrowValues.vector(allocator, list, List.of(
        Arrays.asList((Object) null), Arrays.asList(null, null), List.of(1L),
        Arrays.asList(1L, null)))) {
      Rows rows = VectorRows.encode(converter, List.of(v));
      assertThat(rows.compare(0, 1)).isNegative();
      assertThat(rows.compare(2, 3)).isNegative();
    }
  }

  @Test
  void structIsFlattenedDepthFirstAndANullStructIsOneByte() {
    Field struct = new Field("s", FieldType.nullable(ArrowType.Struct.INSTANCE),
        List.of(RandomColumns.scalar("x", INT32), RandomColumns.scalar("y", FLOAT32)));
    Field a = RandomColumns.scalar("a", INT32);
    Field b = RandomColumns.scalar("b", INT32);
    RowConverter converter = RowConverter.ordered(
        List.of(SortField.ascending(a), SortField.ascending(struct), SortField.ascending(b)));
    try (FieldVector va = ArrowValues.vector(allocator, a, List.of(1L, 1L));
        FieldVector vs = ArrowValues.vector(allocator, struct,
            Arrays.asList(null, List.of(3L, 1.0f)));
        FieldVector vb = ArrowValues.vector(allocator, b, List.of(2L, 2L))) {
      Rows rows = VectorRows.encode(converter, List.of(va, vs, vb));
      assertThat(hex(rows.row(0).toByteArray()))
          .isEqualTo("01 80 00 00 01 00 01 80 00 00 02");
      assertThat(hex(rows.row(1).toByteArray()))
          .isEqualTo("01 80 00 00 01 01 01 80 00 00 03 01 BF 80 00 00 01 80 00 00 02");
    }
  }

  @Test
  void floatsAreTotallyOrderedWithEqualZerosAndEqualNaNs() {
    List<String> rows = encode(SortField.of(FLOAT32, false, true),
        1.0f, -1.0f, 0.0f, -0.0f, Float.NaN, Float.intBitsToFloat(0xFFC00001),
        Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY);
    assertThat(rows.subList(0, 2)).containsExactly("01 BF 80 00 00", "01 40 7F FF FF");
    assertThat(rows.get(2)).isEqualTo("01 80 00 00 00").isEqualTo(rows.get(3));
    assertThat(rows.get(4)).isEqualTo("01 FF C0 00 00").isEqualTo(rows.get(5));
    assertThat(rows.get(6)).isEqualTo("01 FF 80 00 00");
    assertThat(rows.get(7)).isEqualTo("01 00 7F FF FF");
    assertThat(encode(SortField.of(FLOAT64, false, true), 1.0d, -0.0d))
        .containsExactly("01 BF F0 00 00 00 00 00 00", "01 80 00 00 00 00 00 00 00");
  }

  @Test
  void descendingInvertsPresentValuesAndNullsLastUseFF() {
    assertThat(encode(SortField.of(INT32, true, false), 5L, null))
        .containsExactly("01 7F FF FF FA", "FF 00 00 00 00");
    assertThat(encode(SortField.of(ArrowType.Bool.INSTANCE, true, true), true, false))
        .containsExactly("01 FE", "01 FF");
    assertThat(encode(SortField.of(ArrowType.Utf8.INSTANCE, true, false), "MEEP", "", null))
        .containsExactly("FD B2 BA BA AF " + "FF ".repeat(28) + "FB", "FE", "FF");
  }

  @Test
  void decimalsAreTheir128BitUnscaledValue() {
    SortField field = SortField.of(new ArrowType.Decimal(10, 2, 128), false, true);
    assertThat(encode(field, new BigDecimal("1.00"), new BigDecimal("-0.01"))).containsExactly(
        "01 80 00 00 00 00 00 00 00 00 00 00 00 00 00 00 64",
        "01 7F FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF");
  }

  @Test
  void unorderedFormPrefixesLengthsAndCounts() {
    Field s = RandomColumns.scalar("s", ArrowType.Utf8.INSTANCE);
    Field l = new Field("l", FieldType.nullable(ArrowType.List.INSTANCE),
        List.of(RandomColumns.scalar("e", INT8)));
    RowConverter converter = RowConverter.unordered(List.of(s, l));
    try (FieldVector vs = ArrowValues.vector(allocator, s, Arrays.asList("MEEP", null));
        FieldVector vl = ArrowValues.vector(allocator, l, Arrays.asList(Arrays.asList(1L, null),
            null))) {
      Rows rows = VectorRows.encode(converter, List.of(vs, vl));
      assertThat(hex(rows.row(0).toByteArray()))
          .isEqualTo("00 00 00 04 4D 45 45 50 00 00 00 02 01 81 00 00");
      assertThat(hex(rows.row(1).toByteArray())).isEqualTo("FF FF FF FF FF FF FF FF");
    }
  }

  private List<String> encode(SortField field, Object... values) {
    RowConverter converter = RowConverter.ordered(List.of(field));
    try (FieldVector v = ArrowValues.vector(allocator, field.field(), Arrays.asList(values))) {
      Rows rows = VectorRows.encode(converter, List.of(v));
      List<String> out = new ArrayList<>();
      for (int i = 0; i < rows.size(); i++) {
        out.add(hex(rows.row(i).toByteArray()));
      }
      return out;
    }
  }

  private static String blocksOfFour(String value) {
    return hex(VariableEncoding.encodeOrdered(
        value.getBytes(StandardCharsets.UTF_8), false, true, 4));
  }

  private static String zeros(int n) {
    return "00 ".repeat(n);
  }

  static String hex(byte[] bytes) {
    return HexFormat.ofDelimiter(" ").withUpperCase().formatHex(bytes);
  }
}
