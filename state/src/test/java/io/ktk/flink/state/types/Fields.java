package io.ktk.flink.state.types;

import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/** Short constructors for the Arrow types and fields the type-system tests are written in. */
final class Fields {
  static final ArrowType.Int INT8 = new ArrowType.Int(8, true);
  static final ArrowType.Int INT16 = new ArrowType.Int(16, true);
  static final ArrowType.Int INT32 = new ArrowType.Int(32, true);
  static final ArrowType.Int INT64 = new ArrowType.Int(64, true);
  static final ArrowType.Int UINT8 = new ArrowType.Int(8, false);
  static final ArrowType.Int UINT16 = new ArrowType.Int(16, false);
  static final ArrowType.Int UINT32 = new ArrowType.Int(32, false);
  static final ArrowType.Int UINT64 = new ArrowType.Int(64, false);
  static final ArrowType FLOAT16 = new ArrowType.FloatingPoint(FloatingPointPrecision.HALF);
  static final ArrowType FLOAT32 = new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
  static final ArrowType FLOAT64 = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
  static final ArrowType BOOL = ArrowType.Bool.INSTANCE;
  static final ArrowType STRING = ArrowType.Utf8.INSTANCE;
  static final ArrowType LARGE_STRING = ArrowType.LargeUtf8.INSTANCE;
  static final ArrowType BINARY = ArrowType.Binary.INSTANCE;
  static final ArrowType LARGE_BINARY = ArrowType.LargeBinary.INSTANCE;
  static final ArrowType NULL = ArrowType.Null.INSTANCE;
  static final ArrowType DATE32 = new ArrowType.Date(DateUnit.DAY);
  static final ArrowType DATE64 = new ArrowType.Date(DateUnit.MILLISECOND);
  static final ArrowType TIME32_MS = new ArrowType.Time(TimeUnit.MILLISECOND, 32);
  static final ArrowType TIME64_US = new ArrowType.Time(TimeUnit.MICROSECOND, 64);
  static final ArrowType TIMESTAMP_US = new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
  static final ArrowType TIMESTAMP_NS = new ArrowType.Timestamp(TimeUnit.NANOSECOND, null);
  static final ArrowType TIMESTAMP_US_UTC = new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC");

  private Fields() {}

  static ArrowType decimal(int precision, int scale) {
    return new ArrowType.Decimal(precision, scale, 128);
  }

  static ArrowType timestamp(TimeUnit unit, String zone) {
    return new ArrowType.Timestamp(unit, zone);
  }

  /** A nullable field without children. */
  static Field col(String name, ArrowType type) {
    return new Field(name, FieldType.nullable(type), List.of());
  }

  static Field notNull(String name, ArrowType type) {
    return new Field(name, FieldType.notNullable(type), List.of());
  }

  /** A nullable list element named {@code item}. */
  static Field item(ArrowType type) {
    return col("item", type);
  }

  static Field list(String name, Field element) {
    return new Field(name, FieldType.nullable(ArrowType.List.INSTANCE), List.of(element));
  }

  static Field largeList(String name, Field element) {
    return new Field(name, FieldType.nullable(ArrowType.LargeList.INSTANCE), List.of(element));
  }

  static Field struct(String name, Field... children) {
    return new Field(name, FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(children));
  }

  /** {@code field} dictionary-encoded (Arrow's message format: the field type stays the value type). */
  static Field dictionary(Field field, ArrowType.Int indexType, boolean ordered) {
    return dictionary(field, indexType, ordered, 0);
  }

  static Field dictionary(Field field, ArrowType.Int indexType, boolean ordered, long id) {
    return new Field(field.getName(),
        new FieldType(field.isNullable(), field.getType(), new DictionaryEncoding(id, ordered, indexType)),
        field.getChildren());
  }

  static Schema schema(Field... fields) {
    return new Schema(List.of(fields));
  }
}
