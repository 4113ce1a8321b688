package io.ktk.flink.state.types;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Renders Arrow types the way pyarrow prints them ({@code str(pa_type)}), so that error messages
 * and the CLI speak the language of the Python users who read the same datasets.
 *
 * <p>Examples: {@code int64}, {@code uint8}, {@code halffloat}, {@code float}, {@code double},
 * {@code string}, {@code large_string}, {@code binary}, {@code fixed_size_binary[16]},
 * {@code bool}, {@code date32[day]}, {@code time64[us]}, {@code timestamp[us]},
 * {@code timestamp[us, tz=UTC]}, {@code decimal128(5, 2)}, {@code list<item: int64>},
 * {@code list<item: int64 not null>}, {@code struct<a: int64, b: string>},
 * {@code dictionary<values=string, indices=int8, ordered=0>}, {@code map<string, int64>},
 * {@code null}.
 *
 * <p>Nested types need the children of a {@link Field} ({@link ArrowType} alone has none), and a
 * dictionary-encoded field carries its encoding on the {@code Field}: use {@link #name(Field)}
 * for anything but leaf types. The field's own name and nullability are not part of its type
 * name, as in pyarrow; the names and nullability of children are.
 */
public final class ArrowTypeNames {
  private ArrowTypeNames() {}

  /** The pyarrow name of the type of {@code field}, including children and dictionary encoding. */
  public static String name(Field field) {
    requireNonNull(field, "field is null");
    DictionaryEncoding dictionary = field.getDictionary();
    if (dictionary != null) {
      return "dictionary<values=" + valueTypeName(field) + ", indices="
          + name(dictionary.getIndexType()) + ", ordered=" + (dictionary.isOrdered() ? 1 : 0) + ">";
    }
    return valueTypeName(field);
  }

  /**
   * The pyarrow name of a type without children. Nested types are rendered without their
   * children ({@code list}, {@code struct}); use {@link #name(Field)} for them.
   */
  public static String name(ArrowType type) {
    requireNonNull(type, "type is null");
    if (type instanceof ArrowType.ExtensionType extension) {
      // An extension type reports the type id of its storage type.
      return "extension<" + extension.extensionName() + ">";
    }
    return switch (type.getTypeID()) {
      case Null -> "null";
      case Bool -> "bool";
      case Int -> {
        ArrowType.Int intType = (ArrowType.Int) type;
        yield (intType.getIsSigned() ? "int" : "uint") + intType.getBitWidth();
      }
      case FloatingPoint -> switch (((ArrowType.FloatingPoint) type).getPrecision()) {
        case HALF -> "halffloat";
        case SINGLE -> "float";
        case DOUBLE -> "double";
      };
      case Utf8 -> "string";
      case LargeUtf8 -> "large_string";
      case Utf8View -> "string_view";
      case Binary -> "binary";
      case LargeBinary -> "large_binary";
      case BinaryView -> "binary_view";
      case FixedSizeBinary -> "fixed_size_binary[" + ((ArrowType.FixedSizeBinary) type).getByteWidth() + "]";
      case Decimal -> {
        ArrowType.Decimal decimal = (ArrowType.Decimal) type;
        yield "decimal" + decimal.getBitWidth() + "(" + decimal.getPrecision() + ", " + decimal.getScale() + ")";
      }
      case Date -> switch (((ArrowType.Date) type).getUnit()) {
        case DAY -> "date32[day]";
        case MILLISECOND -> "date64[ms]";
      };
      case Time -> {
        ArrowType.Time time = (ArrowType.Time) type;
        yield "time" + time.getBitWidth() + "[" + unitName(time.getUnit()) + "]";
      }
      case Timestamp -> {
        ArrowType.Timestamp timestamp = (ArrowType.Timestamp) type;
        String unit = unitName(timestamp.getUnit());
        yield timestamp.getTimezone() == null
            ? "timestamp[" + unit + "]"
            : "timestamp[" + unit + ", tz=" + timestamp.getTimezone() + "]";
      }
      case Duration -> "duration[" + unitName(((ArrowType.Duration) type).getUnit()) + "]";
      case Interval -> switch (((ArrowType.Interval) type).getUnit()) {
        case YEAR_MONTH -> "month_interval";
        case DAY_TIME -> "day_time_interval";
        case MONTH_DAY_NANO -> "month_day_nano_interval";
      };
      case List -> "list";
      case LargeList -> "large_list";
      case ListView -> "list_view";
      case LargeListView -> "large_list_view";
      case FixedSizeList -> "fixed_size_list[" + ((ArrowType.FixedSizeList) type).getListSize() + "]";
      case Struct -> "struct";
      case Map -> "map";
      case Union -> ((ArrowType.Union) type).getMode().name().toLowerCase(Locale.ROOT) + "_union";
      case RunEndEncoded -> "run_end_encoded";
      case NONE -> "none";
    };
  }

  /** The schema as pyarrow prints it without metadata: one {@code name: type} line per column. */
  public static String name(Schema schema) {
    requireNonNull(schema, "schema is null");
    StringJoiner lines = new StringJoiner("\n");
    for (Field field : schema.getFields()) {
      lines.add(child(field));
    }
    return lines.toString();
  }

  /** The type of the field, ignoring a dictionary encoding on the field itself. */
  private static String valueTypeName(Field field) {
    ArrowType type = field.getType();
    if (type instanceof ArrowType.ExtensionType) {
      return name(type);
    }
    List<Field> children = field.getChildren();
    return switch (type.getTypeID()) {
      case List, LargeList, ListView, LargeListView -> name(type) + "<" + firstChild(field) + ">";
      case FixedSizeList -> "fixed_size_list<" + firstChild(field) + ">["
          + ((ArrowType.FixedSizeList) type).getListSize() + "]";
      case Struct -> {
        StringJoiner joiner = new StringJoiner(", ", "struct<", ">");
        children.forEach(child -> joiner.add(child(child)));
        yield joiner.toString();
      }
      case Map -> mapName((ArrowType.Map) type, children);
      case Union -> unionName((ArrowType.Union) type, children);
      case RunEndEncoded -> children.size() == 2
          ? "run_end_encoded<run_ends: " + name(children.get(0)) + ", values: " + name(children.get(1)) + ">"
          : name(type);
      default -> name(type);
    };
  }

  private static String firstChild(Field field) {
    return field.getChildren().isEmpty() ? "?" : child(field.getChildren().get(0));
  }

  private static String child(Field field) {
    return field.getName() + ": " + name(field) + (field.isNullable() ? "" : " not null");
  }

  private static String mapName(ArrowType.Map type, List<Field> children) {
    if (children.size() != 1 || children.get(0).getChildren().size() != 2) {
      return name(type);
    }
    List<Field> entries = children.get(0).getChildren();
    Field value = entries.get(1);
    return "map<" + name(entries.get(0)) + ", " + name(value) + (value.isNullable() ? "" : " not null")
        + (type.getKeysSorted() ? ", keys_sorted" : "") + ">";
  }

  private static String unionName(ArrowType.Union type, List<Field> children) {
    int[] typeIds = type.getTypeIds();
    StringJoiner joiner = new StringJoiner(", ", name(type) + "<", ">");
    for (int i = 0; i < children.size(); i++) {
      int typeId = typeIds != null && i < typeIds.length ? typeIds[i] : i;
      joiner.add(child(children.get(i)) + "=" + typeId);
    }
    return joiner.toString();
  }

  private static String unitName(TimeUnit unit) {
    return switch (unit) {
      case SECOND -> "s";
      case MILLISECOND -> "ms";
      case MICROSECOND -> "us";
      case NANOSECOND -> "ns";
    };
  }
}
