package io.ktk.flink.state.parquet;

import java.util.stream.Collectors;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Short names of Arrow types for messages, close to pyarrow's: {@code int64}, {@code uint8},
 * {@code float64}, {@code string}, {@code timestamp[us, tz=UTC]}, {@code decimal128(10, 2)},
 * {@code list<int64>}, {@code struct<a: int64, b: string>}. Users of plateau know these names;
 * Arrow Java's {@code toString} ({@code Int(64, true)}) they do not.
 */
public final class ArrowTypeNames {
  private ArrowTypeNames() {}

  /** The name of a field's type, including the element and member types of nested ones. */
  public static String of(Field field) {
    ArrowType type = field.getType();
    switch (type.getTypeID()) {
      case List:
      case LargeList:
      case FixedSizeList:
        String prefix =
            type.getTypeID() == ArrowType.ArrowTypeID.List
                ? "list"
                : type.getTypeID() == ArrowType.ArrowTypeID.LargeList
                    ? "large_list"
                    : "fixed_size_list[" + ((ArrowType.FixedSizeList) type).getListSize() + "]";
        return field.getChildren().isEmpty() ? prefix : prefix + "<" + of(field.getChildren().get(0)) + ">";
      case Struct:
        return field.getChildren().stream()
            .map(child -> child.getName() + ": " + of(child))
            .collect(Collectors.joining(", ", "struct<", ">"));
      default:
        return of(type);
    }
  }

  /** The name of a type; nested types are named without their children. */
  public static String of(ArrowType type) {
    switch (type.getTypeID()) {
      case Null:
        return "null";
      case Bool:
        return "bool";
      case Int:
        ArrowType.Int i = (ArrowType.Int) type;
        return (i.getIsSigned() ? "int" : "uint") + i.getBitWidth();
      case FloatingPoint:
        switch (((ArrowType.FloatingPoint) type).getPrecision()) {
          case HALF:
            return "float16";
          case SINGLE:
            return "float32";
          default:
            return "float64";
        }
      case Utf8:
        return "string";
      case LargeUtf8:
        return "large_string";
      case Binary:
        return "binary";
      case LargeBinary:
        return "large_binary";
      case FixedSizeBinary:
        return "fixed_size_binary[" + ((ArrowType.FixedSizeBinary) type).getByteWidth() + "]";
      case Date:
        return ((ArrowType.Date) type).getUnit() == DateUnit.DAY ? "date32" : "date64";
      case Timestamp:
        ArrowType.Timestamp ts = (ArrowType.Timestamp) type;
        return "timestamp[" + unit(ts.getUnit()) + (ts.getTimezone() == null ? "" : ", tz=" + ts.getTimezone()) + "]";
      case Time:
        ArrowType.Time t = (ArrowType.Time) type;
        return "time" + t.getBitWidth() + "[" + unit(t.getUnit()) + "]";
      case Decimal:
        ArrowType.Decimal d = (ArrowType.Decimal) type;
        return "decimal" + d.getBitWidth() + "(" + d.getPrecision() + ", " + d.getScale() + ")";
      case List:
        return "list";
      case LargeList:
        return "large_list";
      case Struct:
        return "struct";
      default:
        return type.toString();
    }
  }

  private static String unit(TimeUnit unit) {
    switch (unit) {
      case SECOND:
        return "s";
      case MILLISECOND:
        return "ms";
      case MICROSECOND:
        return "us";
      default:
        return "ns";
    }
  }
}
