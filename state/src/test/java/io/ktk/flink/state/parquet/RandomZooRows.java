package io.ktk.flink.state.parquet;

import static io.ktk.flink.state.parquet.TypeZoo.I64;
import static io.ktk.flink.state.parquet.TypeZoo.UTF8;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Seeded random rows of {@link TypeZoo}'s columns plus four more that a writer encodes
 * differently: {@code dict_s} and {@code dict_i} of a handful of distinct values (dictionary
 * encoded), {@code plain_s} and {@code plain_i} of all distinct ones (plain once the dictionary
 * gives up). Primitive values span their types' ranges, about one in ten is null; lists, structs
 * and the null column take one of TypeZoo's rows' values.
 */
final class RandomZooRows {
  private RandomZooRows() {}

  static Schema schema() {
    List<Field> fields = new ArrayList<>(TypeZoo.SCHEMA.getFields());
    fields.add(Field.nullable("dict_s", UTF8));
    fields.add(Field.nullable("plain_s", UTF8));
    fields.add(Field.nullable("dict_i", I64));
    fields.add(Field.nullable("plain_i", I64));
    return new Schema(fields);
  }

  static List<List<Object>> rows(Schema schema, int count, Random random) {
    List<Field> fields = schema.getFields();
    List<List<Object>> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      List<Object> row = new ArrayList<>();
      for (int c = 0; c < fields.size(); c++) {
        Field field = fields.get(c);
        boolean nullable = field.isNullable() && !(field.getType() instanceof ArrowType.Null);
        row.add(nullable && random.nextInt(10) == 0 ? null : value(field, c, i, random));
      }
      rows.add(row);
    }
    return rows;
  }

  private static Object value(Field field, int column, int row, Random random) {
    switch (field.getName()) {
      case "dict_s":
        return List.of("red", "green", "blue", "ünïcode").get(random.nextInt(4));
      case "plain_s":
        return "row-" + row + "-" + Long.toHexString(random.nextLong());
      case "dict_i":
        return (long) random.nextInt(5) - 2;
      case "plain_i":
        return random.nextLong();
      default:
        break;
    }
    ArrowType type = field.getType();
    if (type instanceof ArrowType.Int integer) {
      int bits = integer.getBitWidth();
      if (bits == 64) {
        return random.nextLong();
      }
      long value = random.nextLong() & ((1L << bits) - 1);
      return integer.getIsSigned() ? value - (1L << (bits - 1)) : value;
    }
    if (type instanceof ArrowType.FloatingPoint floating) {
      double value = random.nextInt(20) == 0
          ? List.of(Double.NaN, -0.0, Double.POSITIVE_INFINITY).get(random.nextInt(3))
          : (random.nextDouble() - 0.5) * 1e9;
      return floating.getPrecision() == FloatingPointPrecision.SINGLE ? (double) (float) value : value;
    }
    if (type instanceof ArrowType.Bool) {
      return random.nextBoolean();
    }
    if (type instanceof ArrowType.Utf8 || type instanceof ArrowType.LargeUtf8) {
      return "s" + random.nextInt(40);
    }
    if (type instanceof ArrowType.Binary) {
      byte[] bytes = new byte[random.nextInt(7)];
      random.nextBytes(bytes);
      return bytes;
    }
    if (type instanceof ArrowType.FixedSizeBinary fixed) {
      byte[] bytes = new byte[fixed.getByteWidth()];
      random.nextBytes(bytes);
      return bytes;
    }
    if (type instanceof ArrowType.Date) {
      return LocalDate.ofEpochDay(random.nextInt(3_000_000) - 700_000);
    }
    if (type instanceof ArrowType.Time) {
      return LocalTime.ofNanoOfDay((long) random.nextInt(86_400_000) * 1_000_000 + random.nextInt(1_000) * 1_000);
    }
    if (type instanceof ArrowType.Timestamp timestamp) {
      long seconds = random.nextLong(-4_000_000_000L, 7_000_000_000L);
      int nanos = random.nextInt(1_000_000_000);
      nanos -= nanos % (timestamp.getUnit() == TimeUnit.MILLISECOND ? 1_000_000
          : timestamp.getUnit() == TimeUnit.MICROSECOND ? 1_000 : 1);
      return timestamp.getTimezone() == null
          ? LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC)
          : Instant.ofEpochSecond(seconds, nanos);
    }
    if (type instanceof ArrowType.Decimal decimal) {
      BigInteger unscaled = new BigInteger(130, random).mod(BigInteger.TEN.pow(decimal.getPrecision()));
      return new BigDecimal(random.nextBoolean() ? unscaled.negate() : unscaled, decimal.getScale());
    }
    // lists, structs and the null column: one of TypeZoo's rows' values
    return TypeZoo.ROWS.get(random.nextInt(TypeZoo.ROWS.size())).get(column);
  }
}
