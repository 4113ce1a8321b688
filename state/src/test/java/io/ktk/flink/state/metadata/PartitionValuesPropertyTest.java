package io.ktk.flink.state.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ktk.flink.state.testing.Python;
import io.ktk.flink.state.types.ArrowTypeNames;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded random values of every supported partition type: decoding the encoding gives the value back,
 * and rendering/encoding equals what Python's {@code str()} and {@code urllib.parse.quote(s, safe="")}
 * produce for the same value (computed by the real interpreter, not by the code under test).
 */
class PartitionValuesPropertyTest {
  private static final long SEED = Long.getLong("ktk.test.seed", 20240611L);
  private static final int PER_TYPE = 60;
  private static final String CHAR_POOL =
      "aZ09-_.~/=% +:?#&\"'\\\n\tü日😀";
  private static final LocalDateTime PANDAS_MIN = LocalDateTime.of(1677, 9, 22, 0, 0);
  private static final LocalDateTime PANDAS_MAX = LocalDateTime.of(2262, 4, 10, 0, 0);
  private static final String PYTHON =
      String.join(
          "\n",
          "import datetime, decimal, json, struct, sys, urllib.parse",
          "import pandas as pd",
          "cases = json.load(open(sys.argv[1]))",
          "out = []",
          "for c in cases:",
          "    k = c['k']",
          "    if k == 'bytes':",
          "        b = bytes.fromhex(c['v'])",
          "        out.append([b.decode('utf-8'), urllib.parse.quote(b, safe='')])",
          "        continue",
          "    if k == 'int': s = str(int(c['v']))",
          "    elif k == 'float': s = str(struct.unpack('>d', bytes.fromhex(c['v']))[0])",
          "    elif k == 'str': s = bytes.fromhex(c['v']).decode('utf-8')",
          "    elif k == 'date': s = str(datetime.date(1970, 1, 1) + datetime.timedelta(days=c['v']))",
          "    elif k == 'ts': s = str(pd.Timestamp(c['v'], unit='ns'))",
          "    elif k == 'tstz': s = str(pd.Timestamp(c['v'], unit='ns', tz=c['tz']))",
          "    elif k == 'dec': s = str(decimal.Decimal(c['unscaled'] + 'E' + str(-c['scale'])))",
          "    else: raise ValueError(k)",
          "    out.append([s, urllib.parse.quote(s, safe='')])",
          "print(json.dumps(out))",
          "");

  @TempDir Path dir;

  private record Case(Field field, Object value, ObjectNode python) {
    @Override
    public String toString() {
      String shown = value instanceof byte[] b ? "0x" + HexFormat.of().formatHex(b) : String.valueOf(value);
      return ArrowTypeNames.name(field.getType()) + " value " + shown + " (" + python + ", seed " + SEED + ")";
    }
  }

  @Test
  void decodeOfEncodeIsTheValueAndRenderingMatchesPythonStr() throws Exception {
    List<Case> cases = generate(new Random(SEED));
    ObjectMapper mapper = new ObjectMapper();
    ArrayNode input = mapper.createArrayNode();
    cases.forEach(c -> input.add(c.python()));
    Path file = dir.resolve("cases.json");
    Files.write(file, mapper.writeValueAsBytes(input));
    JsonNode expected = mapper.readTree(Python.run(PYTHON, file.toString()));
    assertThat(expected.size()).isEqualTo(cases.size());

    for (int i = 0; i < cases.size(); i++) {
      Case c = cases.get(i);
      String rendered = PartitionValues.render(c.field(), c.value());
      String encoded = c.field().getType() instanceof ArrowType.Decimal
          ? PercentEncoding.quote(rendered)
          : PartitionValues.encode(c.field(), c.value());
      assertThat(rendered).as("render of %s", c).isEqualTo(expected.get(i).get(0).textValue());
      assertThat(encoded).as("encode of %s", c).isEqualTo(expected.get(i).get(1).textValue());
      Object decoded = PartitionValues.decode("label of " + c, c.field(), encoded);
      assertThat(sameValue(decoded, c.value())).as("decode(encode(v)) == v for %s, got %s", c, decoded).isTrue();
    }
  }

  private static boolean sameValue(Object a, Object b) {
    if (a instanceof byte[] x && b instanceof byte[] y) {
      return Arrays.equals(x, y);
    }
    if (a instanceof Double x && b instanceof Double y) {
      return Double.compare(x, y) == 0;
    }
    return a.equals(b);
  }

  private static List<Case> generate(Random random) {
    List<Case> cases = new ArrayList<>();
    ObjectMapper mapper = new ObjectMapper();
    for (int bits : new int[] {8, 16, 32, 64}) {
      for (boolean signed : new boolean[] {true, false}) {
        Field field = field("i", new ArrowType.Int(bits, signed));
        List<Long> values = new ArrayList<>(List.of(0L, 1L));
        if (signed) {
          values.addAll(List.of(-1L, -(1L << (bits - 1)), bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1));
        } else {
          values.add(bits == 64 ? -1L : (1L << bits) - 1);
        }
        for (int i = 0; i < PER_TYPE / 4; i++) {
          long v = random.nextLong();
          values.add(bits == 64 ? v : signed ? (v << (64 - bits)) >> (64 - bits) : v >>> (64 - bits));
        }
        for (long v : values) {
          String text = signed || bits < 64 ? Long.toString(v) : Long.toUnsignedString(v);
          cases.add(new Case(field, v, mapper.createObjectNode().put("k", "int").put("v", text)));
        }
      }
    }

    List<Double> doubles = new ArrayList<>(List.of(0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE, Double.MIN_NORMAL, 1e16, 1e15, 1e-4, 1e-5,
        9.999999999999999e15, 1e22, 1e23, 2e23, 0.1, 1.0 / 3, 123456789012345678.0, 5e-324, 1.5, 100.0));
    for (int i = 0; i < PER_TYPE; i++) {
      switch (i % 4) {
        case 0 -> doubles.add(Double.longBitsToDouble(random.nextLong()));
        case 1 -> doubles.add((double) (random.nextInt() / (1 << random.nextInt(20))));
        case 2 -> doubles.add(random.nextInt(100000) / Math.pow(10, random.nextInt(12)));
        default -> doubles.add(random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20));
      }
    }
    Field float64 = field("f", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
    Field float32 = field("f", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE));
    for (double d : doubles) {
      cases.add(new Case(float64, d, floatCase(mapper, d)));
      double narrowed = (double) (float) d;
      cases.add(new Case(float32, narrowed, floatCase(mapper, narrowed)));
    }

    Field utf8 = field("s", ArrowType.Utf8.INSTANCE);
    Field largeUtf8 = field("s", ArrowType.LargeUtf8.INSTANCE);
    Field binary = field("b", ArrowType.Binary.INSTANCE);
    int[] codePoints = CHAR_POOL.codePoints().toArray();
    for (int i = 0; i < PER_TYPE; i++) {
      StringBuilder s = new StringBuilder();
      int length = i == 0 ? 0 : random.nextInt(12);
      for (int j = 0; j < length; j++) {
        s.appendCodePoint(codePoints[random.nextInt(codePoints.length)]);
      }
      String hex = HexFormat.of().formatHex(s.toString().getBytes(StandardCharsets.UTF_8));
      cases.add(new Case(i % 2 == 0 ? utf8 : largeUtf8, s.toString(), mapper.createObjectNode().put("k", "str").put("v", hex)));
      cases.add(new Case(binary, s.toString().getBytes(StandardCharsets.UTF_8),
          mapper.createObjectNode().put("k", "bytes").put("v", hex)));
    }

    Field date = field("d", new ArrowType.Date(org.apache.arrow.vector.types.DateUnit.DAY));
    long minDay = LocalDate.of(1, 1, 1).toEpochDay();
    long maxDay = LocalDate.of(9999, 12, 31).toEpochDay();
    List<Long> days = new ArrayList<>(List.of(minDay, maxDay, 0L, -1L));
    for (int i = 0; i < PER_TYPE; i++) {
      days.add(minDay + (long) (random.nextDouble() * (maxDay - minDay)));
    }
    for (long day : days) {
      cases.add(new Case(date, LocalDate.ofEpochDay(day), mapper.createObjectNode().put("k", "date").put("v", day)));
    }

    Field tsUs = field("t", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null));
    Field tsNs = field("t", new ArrowType.Timestamp(TimeUnit.NANOSECOND, null));
    Field tsS = field("t", new ArrowType.Timestamp(TimeUnit.SECOND, null));
    long min = PANDAS_MIN.toEpochSecond(ZoneOffset.UTC);
    long max = PANDAS_MAX.toEpochSecond(ZoneOffset.UTC);
    for (int i = 0; i < PER_TYPE; i++) {
      long second = min + (long) (random.nextDouble() * (max - min));
      int nanos = random.nextInt(1_000_000_000);
      LocalDateTime base = LocalDateTime.ofEpochSecond(second, nanos, ZoneOffset.UTC);
      LocalDateTime us = base.truncatedTo(ChronoUnit.MICROS);
      LocalDateTime s = base.truncatedTo(ChronoUnit.SECONDS);
      cases.add(new Case(tsUs, us, tsCase(mapper, us.toInstant(ZoneOffset.UTC), null)));
      cases.add(new Case(tsUs, s, tsCase(mapper, s.toInstant(ZoneOffset.UTC), null)));
      cases.add(new Case(tsS, s.minusSeconds(i), tsCase(mapper, s.minusSeconds(i).toInstant(ZoneOffset.UTC), null)));
      cases.add(new Case(tsNs, base, tsCase(mapper, base.toInstant(ZoneOffset.UTC), null)));
      String tz = List.of("UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata").get(i % 4);
      Field tsTz = field("t", new ArrowType.Timestamp(TimeUnit.MICROSECOND, tz));
      Instant instant = (i % 3 == 0 ? s : us).toInstant(ZoneOffset.UTC);
      cases.add(new Case(tsTz, instant, tsCase(mapper, instant, tz)));
    }

    for (int i = 0; i < PER_TYPE; i++) {
      int scale = random.nextInt(11);
      BigInteger unscaled = new BigInteger(random.nextInt(126) + 1, random);
      if (i % 5 == 0) {
        unscaled = BigInteger.valueOf(random.nextInt(10));
      }
      if (random.nextBoolean()) {
        unscaled = unscaled.negate();
      }
      Field decimal = field("m", new ArrowType.Decimal(38, scale, 128));
      cases.add(new Case(decimal, new BigDecimal(unscaled, scale), mapper.createObjectNode().put("k", "dec")
          .put("unscaled", unscaled.toString()).put("scale", scale)));
    }
    return cases;
  }

  private static ObjectNode floatCase(ObjectMapper mapper, double d) {
    return mapper.createObjectNode().put("k", "float").put("v", String.format("%016x", Double.doubleToRawLongBits(d)));
  }

  private static ObjectNode tsCase(ObjectMapper mapper, Instant instant, String tz) {
    long nanos = Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L), instant.getNano());
    ObjectNode node = mapper.createObjectNode().put("k", tz == null ? "ts" : "tstz").put("v", nanos);
    return tz == null ? node : node.put("tz", tz);
  }

  private static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.notNullable(type), null);
  }
}
