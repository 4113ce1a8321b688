package io.ktk.flink.state.rowformat;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * One column of a row key: its Arrow field (type and, for struct and list, children) and its sort
 * options. The options apply to the whole column, nested values included: a descending list
 * column compares its elements descending and puts longer lists before their prefixes.
 *
 * @param field the column's Arrow field; its name is used for the decoded vectors and messages
 * @param descending whether larger values sort first
 * @param nullsFirst whether nulls sort before all values (independent of {@code descending})
 */
public record SortField(Field field, boolean descending, boolean nullsFirst) {

  public SortField {
    requireNonNull(field, "field is null");
  }

  /** Ascending, nulls first: the order of the row keys used for grouping and joining. */
  public static SortField ascending(Field field) {
    return new SortField(field, false, true);
  }

  /**
   * A column of a type without children (everything but struct and list), named "key".
   *
   * @throws IllegalArgumentException for struct and list, which need their children: use the
   *     constructor with a {@link Field}
   */
  public static SortField of(ArrowType type, boolean descending, boolean nullsFirst) {
    requireNonNull(type, "type is null");
    if (type.isComplex()) {
      throw new IllegalArgumentException(
          "Cannot create sort field for type " + type + ": nested types need an Arrow Field with"
              + " children");
    }
    return new SortField(new Field("key", FieldType.nullable(type), null), descending, nullsFirst);
  }

  public ArrowType type() {
    return field.getType();
  }
}
