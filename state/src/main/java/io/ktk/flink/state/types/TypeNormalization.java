package io.ktk.flink.state.types;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Kartothek's type normalization: the type a column has in the common metadata, given the type a
 * data file or a micro-batch has. The table of Kartothek's type system documentation, plus
 * plateau's rule for timestamps without a time zone:
 *
 * <pre>
 * int8, int16, int32, int64                 -> int64
 * uint8, uint16, uint32, uint64             -> uint64
 * halffloat, float, double                  -> double          (float16/32/64 -> float64)
 * list&lt;T&gt;                                   -> list&lt;item: norm(T)&gt;
 * dictionary&lt;values=T, indices=I, ordered=O&gt; -> norm(T)
 * timestamp[s|ms|us|ns] (no time zone)      -> timestamp[us]
 * anything else                             -> unchanged (string, zoned timestamps, decimals, structs, ...)
 * </pre>
 *
 * <p>Timestamps without a zone: every writer stores them in microseconds (pyarrow's {@code
 * coerce_timestamps="us"} for plateau and Kartothek, {@link TimestampCoercion} here), and plateau
 * treats all their units as one type: before it compares schemas across files and versions it
 * coerces naive {@code s}, {@code ms} and {@code us} to {@code ns} (the unit pandas uses), and it
 * reads a stored {@code timestamp[us]} back as {@code timestamp[ns]}. So its {@code
 * _common_metadata} names {@code timestamp[ns]} for a column whose files hold microseconds. This
 * project normalizes them to the unit stored, {@code timestamp[us]}, which plateau reads as its
 * {@code timestamp[ns]}; a value finer than a microsecond is refused when written, never
 * truncated. Zoned timestamps are not normalized: plateau compares them unit by unit.
 *
 * <p>Examples from that documentation: {@code norm(list[dictionary[int8, int8, 1]]) = list[int64]},
 * {@code norm(dictionary[list[int8], int8, 1]) = list[int64]}.
 *
 * <p>Decisions where it is silent:
 * <ul>
 *   <li>{@code large_list<T>} becomes {@code large_list<item: norm(T)>}: the container stays as
 *       it is (plateau leaves {@code large_list} alone), but its elements are normalized so that
 *       {@link SchemaCompatibility}, which treats {@code list} and {@code large_list} as one
 *       class, compares normalized elements on both sides.
 *   <li>A normalized list's element field is named {@code item} and is nullable, as pyarrow's
 *       {@code pa.list_(t)} (which plateau uses) builds it.
 *   <li>Structs are unchanged, including their children: the documentation does not normalize structs.
 *   <li>{@code large_string} stays {@code large_string}; {@link SchemaCompatibility} treats it as
 *       the same class as {@code string} instead.
 *   <li>The field's own name, nullability and metadata are kept.
 * </ul>
 *
 * <p>Dictionary encoding in Arrow Java lives on the {@link Field}: the field's type is the value
 * type (the IPC "message format" that {@code ARROW:schema} and Parquet readers produce) and
 * {@link Field#getDictionary()} holds index type and ordered flag. Normalizing drops the encoding.
 * Schemas in Arrow Java's in-memory dictionary format, where the field type is the index type,
 * must be converted back to message format first.
 */
public final class TypeNormalization {
  private static final ArrowType INT64 = new ArrowType.Int(64, true);
  private static final ArrowType UINT64 = new ArrowType.Int(64, false);
  private static final ArrowType FLOAT64 = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
  private static final ArrowType NAIVE_TIMESTAMP = new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);

  private TypeNormalization() {}

  /**
   * Normalizes a type without children: integers to 64 bits of the same signedness, floats to
   * {@code double}, timestamps without a zone to {@code timestamp[us]}, anything else unchanged.
   * List elements and dictionaries live on {@link Field}s: use {@link #normalize(Field)} for them.
   */
  public static ArrowType normalize(ArrowType type) {
    requireNonNull(type, "type is null");
    if (type instanceof ArrowType.Int intType) {
      return intType.getIsSigned() ? INT64 : UINT64;
    }
    if (type instanceof ArrowType.FloatingPoint) {
      return FLOAT64;
    }
    if (type instanceof ArrowType.Timestamp timestamp && timestamp.getTimezone() == null) {
      return NAIVE_TIMESTAMP;
    }
    return type;
  }

  /** Normalizes the field's type, following list elements and dropping dictionary encodings. */
  public static Field normalize(Field field) {
    requireNonNull(field, "field is null");
    ArrowType type = field.getType();
    List<Field> children = field.getChildren();
    if (type instanceof ArrowType.List || type instanceof ArrowType.LargeList) {
      Field element = normalize(children.get(0));
      children = List.of(new Field("item", new FieldType(true, element.getType(), null, element.getMetadata()),
          element.getChildren()));
    }
    return new Field(field.getName(),
        new FieldType(field.isNullable(), normalize(type), null, field.getMetadata()), children);
  }

  /** Normalizes every column; column order and schema metadata are kept. */
  public static Schema normalize(Schema schema) {
    requireNonNull(schema, "schema is null");
    List<Field> fields = new ArrayList<>(schema.getFields().size());
    for (Field field : schema.getFields()) {
      fields.add(normalize(field));
    }
    return new Schema(fields, schema.getCustomMetadata());
  }
}
