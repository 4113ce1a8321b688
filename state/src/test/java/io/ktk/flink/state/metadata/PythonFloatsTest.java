package io.ktk.flink.state.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.testing.Python;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PythonFloats#repr}: Schubfach's digits give the same text as the big-decimal search
 * the class did before ({@link PythonFloatsBefore}) on many seeded random doubles of every
 * magnitude, and Python's {@code repr} itself on a sample.
 */
class PythonFloatsTest {
  private static final long SEED = Long.getLong("ktk.test.seed", 20261125L);

  @Test
  void knownValuesArePrintedAsPythonDoes() {
    assertThat(PythonFloats.repr(1.5)).isEqualTo("1.5");
    assertThat(PythonFloats.repr(1.0)).isEqualTo("1.0");
    assertThat(PythonFloats.repr(0.1)).isEqualTo("0.1");
    assertThat(PythonFloats.repr(0.0001)).isEqualTo("0.0001");
    assertThat(PythonFloats.repr(0.00001)).isEqualTo("1e-05");
    assertThat(PythonFloats.repr(1e16)).isEqualTo("1e+16");
    assertThat(PythonFloats.repr(9999999999999998.0)).isEqualTo("9999999999999998.0");
    assertThat(PythonFloats.repr(1.2345e20)).isEqualTo("1.2345e+20");
    assertThat(PythonFloats.repr(123.456)).isEqualTo("123.456");
    // a few decimal places, the common case, written without Schubfach's string
    assertThat(PythonFloats.repr(20.07)).isEqualTo("20.07");
    assertThat(PythonFloats.repr(0.05)).isEqualTo("0.05");
    assertThat(PythonFloats.repr(0.001)).isEqualTo("0.001");
    assertThat(PythonFloats.repr(-29.5)).isEqualTo("-29.5");
    assertThat(PythonFloats.repr(9999999.9999)).isEqualTo("9999999.9999");
    assertThat(PythonFloats.repr(1234567.0)).isEqualTo("1234567.0");
    assertThat(PythonFloats.repr(0.30000000000000004)).isEqualTo("0.30000000000000004");
    assertThat(PythonFloats.repr(20.07 + Math.ulp(20.07))).isEqualTo("20.070000000000004");
    assertThat(PythonFloats.repr(-0.0)).isEqualTo("-0.0");
    assertThat(PythonFloats.repr(0.0)).isEqualTo("0.0");
    assertThat(PythonFloats.repr(Double.NaN)).isEqualTo("nan");
    assertThat(PythonFloats.repr(Double.POSITIVE_INFINITY)).isEqualTo("inf");
    assertThat(PythonFloats.repr(Double.NEGATIVE_INFINITY)).isEqualTo("-inf");
    assertThat(PythonFloats.repr(Double.MAX_VALUE)).isEqualTo("1.7976931348623157e+308");
    assertThat(PythonFloats.repr(-Double.MIN_NORMAL)).isEqualTo("-2.2250738585072014e-308");
    // Java 19's Double.toString says 4.9E-324 and 2.0E23 is 1.9999999999999998E23 on Java 17
    assertThat(PythonFloats.repr(Double.MIN_VALUE)).isEqualTo("5e-324");
    assertThat(PythonFloats.repr(2e23)).isEqualTo("2e+23");
  }

  @Test
  void printsWhatTheBigDecimalWayPrintedOnRandomDoubles() {
    List<Double> values = randomDoubles(new Random(SEED), 60_000);
    for (double value : values) {
      assertThat(PythonFloats.repr(value)).as("bits %016x", Double.doubleToRawLongBits(value))
          .isEqualTo(PythonFloatsBefore.repr(value));
    }
  }

  @Test
  void writesAtAnOffsetWithinMaxChars() {
    char[] out = new char[3 + PythonFloats.MAX_CHARS];
    int end = PythonFloats.write(-1.2345678901234567e-308, out, 3);
    assertThat(end - 3).isEqualTo(PythonFloats.MAX_CHARS);
    assertThat(new String(out, 3, end - 3)).isEqualTo("-1.2345678901234567e-308");
  }

  @Test
  void agreesWithPythonsRepr(@TempDir Path dir) throws Exception {
    List<Double> values = randomDoubles(new Random(SEED + 1), 20_000);
    Path input = dir.resolve("bits.txt");
    Files.writeString(input, values.stream()
        .map(value -> String.format("%016x", Double.doubleToRawLongBits(value)))
        .collect(Collectors.joining("\n")));
    String script = String.join("\n",
        "import struct, sys",
        "for line in open(sys.argv[1]):",
        "    print(repr(struct.unpack('>d', bytes.fromhex(line.strip()))[0]))");
    List<String> expected = Python.run(script, input.toString()).lines().toList();
    assertThat(expected).hasSize(values.size());
    for (int i = 0; i < values.size(); i++) {
      assertThat(PythonFloats.repr(values.get(i))).as("bits %016x", Double.doubleToRawLongBits(values.get(i)))
          .isEqualTo(expected.get(i));
    }
  }

  /**
   * Doubles of every kind: random bit patterns (every exponent), subnormals, small integers and
   * short decimals, powers of ten and their neighbours, values of a few significant digits at
   * every magnitude, ±0, NaN, ±infinity and the extremes.
   */
  static List<Double> randomDoubles(Random random, int count) {
    List<Double> values = new ArrayList<>(List.of(0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY, Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_VALUE, Double.MIN_NORMAL,
        Math.nextDown(Double.MIN_NORMAL), 2e23, 5e-324, 1e23, 9007199254740993.0));
    for (int e = -325; e <= 308; e++) {
      double power = Double.parseDouble("1e" + e);
      values.add(power);
      values.add(Math.nextUp(power));
      values.add(Math.nextDown(power));
    }
    for (long bits = 1; bits < 4096; bits++) {
      values.add(Double.longBitsToDouble(bits)); // the subnormals with the widest intervals
    }
    while (values.size() < count) {
      int kind = random.nextInt(6);
      double value = switch (kind) {
        case 0 -> Double.longBitsToDouble(random.nextLong());
        case 1 -> Double.longBitsToDouble(random.nextLong() & 0x800FFFFFFFFFFFFFL); // subnormal
        case 2 -> random.nextInt(2_000_001) - 1_000_000;
        case 3 -> (random.nextInt(2_000_001) - 1_000_000) / Math.pow(10, random.nextInt(8));
        case 4 -> Double.parseDouble((random.nextInt(999) + 1) + "e" + (random.nextInt(630) - 320));
        default -> random.nextDouble() * Math.pow(10, random.nextInt(40) - 20);
      };
      values.add(value);
    }
    return values;
  }
}
