package io.ktk.flink.source.reader;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Lists and structs of {@link org.apache.flink.types.Row} records as mutable collections. The row
 * type declares them as generic objects ({@code RowTypes}), which Flink copies and serializes with
 * Kryo; Kryo re-creates a collection through its class's no-argument constructor, which the
 * read-only lists and maps the reader hands out lack (a copy would come out broken). So the rows of
 * a {@code Row} source hold {@link ArrayList}s and {@link LinkedHashMap}s, nested ones too.
 */
final class MutableNestedValues {
  private MutableNestedValues() {}

  /** The positions of the columns of {@code schema} whose values are lists or structs. */
  static int[] columns(Schema schema) {
    List<Field> fields = schema.getFields();
    return IntStream.range(0, fields.size())
        .filter(i -> !fields.get(i).getChildren().isEmpty())
        .toArray();
  }

  /** {@code value} with every list and map in it copied into a mutable one; other values as they are. */
  static Object copy(Object value) {
    if (value instanceof List<?> list) {
      List<Object> copy = new ArrayList<>(list.size());
      for (Object element : list) {
        copy.add(copy(element));
      }
      return copy;
    }
    if (value instanceof Map<?, ?> map) {
      Map<Object, Object> copy = new LinkedHashMap<>();
      map.forEach((key, element) -> copy.put(key, copy(element)));
      return copy;
    }
    return value;
  }
}
