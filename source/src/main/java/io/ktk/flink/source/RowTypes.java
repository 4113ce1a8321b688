package io.ktk.flink.source;

import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.RowTypeInfo;

/**
 * The Flink type of the rows of a query result: a {@link RowTypeInfo} with the output columns'
 * names, each typed by the Java class of its values (the project's value convention): integers
 * (also unsigned, as their bits) {@code Long}, floats {@code Double}, bool {@code Boolean}, strings
 * {@code String}, binary {@code byte[]}, date {@code LocalDate}, timestamp {@code LocalDateTime} or
 * with a zone {@code Instant}, time {@code LocalTime}, decimal {@code BigDecimal}; lists and structs
 * as generic objects ({@code List}, {@code Map}).
 */
final class RowTypes {
  private RowTypes() {}

  static RowTypeInfo of(Schema schema) {
    TypeInformation<?>[] types = new TypeInformation<?>[schema.getFields().size()];
    String[] names = new String[types.length];
    for (int i = 0; i < types.length; i++) {
      Field field = schema.getFields().get(i);
      names[i] = field.getName();
      types[i] = of(field.getType());
    }
    return new RowTypeInfo(types, names);
  }

  private static TypeInformation<?> of(ArrowType type) {
    return switch (type.getTypeID()) {
      case Int -> Types.LONG;
      case FloatingPoint -> Types.DOUBLE;
      case Bool -> Types.BOOLEAN;
      case Utf8, LargeUtf8 -> Types.STRING;
      case Binary, LargeBinary, FixedSizeBinary -> Types.PRIMITIVE_ARRAY(Types.BYTE);
      case Date -> Types.LOCAL_DATE;
      case Timestamp -> ((ArrowType.Timestamp) type).getTimezone() == null ? Types.LOCAL_DATE_TIME : Types.INSTANT;
      case Time -> Types.LOCAL_TIME;
      case Decimal -> Types.BIG_DEC;
      default -> Types.GENERIC(Object.class);
    };
  }
}
