package io.ktk.flink.state.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class TypedValueCodecTest {

  @Test
  void theBytesOfTheClassJavadocExamplesArePinned() throws IOException {
    assertThat(hex(null)).isEqualTo("00");
    assertThat(hex(7L)).isEqualTo("010000000000000007");
    assertThat(hex(1.5)).isEqualTo("023ff8000000000000");
    assertThat(hex("ü")).isEqualTo("0300000002c3bc");
    assertThat(hex(true)).isEqualTo("0401");
    assertThat(hex(new byte[] {0, -1})).isEqualTo("050000000200ff");
    assertThat(hex(LocalDate.of(1970, 1, 2))).isEqualTo("060000000000000001");
    assertThat(hex(new BigDecimal("-1.5"))).isEqualTo("0a0000000100000001f1");
    assertThat(hex(LocalDateTime.of(1970, 1, 1, 0, 0, 1, 5))).isEqualTo("07000000000000000100000005");
    assertThat(hex(Instant.ofEpochSecond(-1, 2))).isEqualTo("08ffffffffffffffff00000002");
    assertThat(hex(LocalTime.ofNanoOfDay(3))).isEqualTo("090000000000000003");
  }

  @Test
  void everyValueOfTheConventionRoundTripsThroughPlainStreams() throws IOException {
    List<Object> values = Arrays.asList(null, Long.MIN_VALUE, -1L, -0.0, Double.NaN,
        Double.longBitsToDouble(0x7ff8_0000_0000_0001L), Double.NEGATIVE_INFINITY, true, false, "", "zürich/€",
        new byte[0], LocalDate.of(-1, 12, 31), LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999),
        Instant.parse("2024-02-29T12:00:00.000001Z"), LocalTime.MIDNIGHT, LocalTime.MAX,
        new BigDecimal("-12345678901234567890.1234"), new BigDecimal("1E+5"));
    for (Object value : values) {
      byte[] bytes = encode(value);
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
      Object back = TypedValueCodec.read(in);
      assertThat(in.available()).as("bytes left after %s", value).isZero();
      if (value instanceof Double d) {
        assertThat(Double.doubleToRawLongBits((Double) back)).as("bits of %s", value)
            .isEqualTo(Double.doubleToRawLongBits(d));
      } else if (value instanceof BigDecimal d) {
        assertThat(back).as("scale kept").isEqualTo(d);
      } else {
        assertThat(back).as("value %s", value).isEqualTo(value);
      }
    }
    byte[] large = new byte[200_000];
    large[199_999] = 42;
    Object back = TypedValueCodec.read(new DataInputStream(new ByteArrayInputStream(encode(large))));
    assertThat((byte[]) back).isEqualTo(large);
  }

  @Test
  void unknownTagsDamagedLengthsAndOtherClassesAreRefused() throws IOException {
    assertThatThrownBy(() -> TypedValueCodec.read(input("0b")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Unrecognized version or corrupt state: unknown typed value tag 11");
    assertThatThrownBy(() -> TypedValueCodec.read(input("03ffffffff")))
        .isInstanceOf(IOException.class).hasMessageContaining("negative length -1");
    assertThatThrownBy(() -> TypedValueCodec.read(input("057fffffff0000")))
        .as("a length beyond the input ends in EOF, not in a 2 GB array").isInstanceOf(EOFException.class);
    assertThatThrownBy(() -> encode(42))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Cannot encode value 42 of class java.lang.Integer: not a typed value");
  }

  private static DataInputStream input(String hex) {
    return new DataInputStream(new ByteArrayInputStream(HexFormat.of().parseHex(hex)));
  }

  private static String hex(Object value) throws IOException {
    return HexFormat.of().formatHex(encode(value));
  }

  private static byte[] encode(Object value) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      TypedValueCodec.write(out, value);
    }
    return bytes.toByteArray();
  }
}
