package io.ktk.flink.state.metadata;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.types.ArrowTypeNames;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The {@code pandas} entry of a Parquet footer (and of the Arrow schema's metadata) that pyarrow
 * writes for a DataFrame without an index: how to turn each column back into a pandas column.
 * plateau requires it in {@code _common_metadata} and reads string columns through it.
 *
 * <pre>{@code
 * {"index_columns": [],
 *  "column_indexes": [{"name": null, "field_name": null, "pandas_type": "unicode",
 *                      "numpy_type": "object", "metadata": {"encoding": "UTF-8"}}],
 *  "columns": [
 *    {"name": "p", "field_name": "p", "pandas_type": "int64", "numpy_type": "int64", "metadata": null},
 *    {"name": "s", "field_name": "s", "pandas_type": "unicode", "numpy_type": "object", "metadata": null},
 *    {"name": "t", "field_name": "t", "pandas_type": "datetimetz", "numpy_type": "datetime64[us]",
 *     "metadata": {"timezone": "UTC"}},
 *    {"name": "d", "field_name": "d", "pandas_type": "decimal", "numpy_type": "object",
 *     "metadata": {"precision": 10, "scale": 2}}],
 *  "attributes": {},
 *  "creator": {"library": "ktk-flink", "version": "..."},
 *  "pandas_version": "2.2.3"}
 * }</pre>
 *
 * <p>Per Arrow type: integers and floats by their name ({@code int64}, {@code uint8}, {@code
 * float64}); bool {@code bool}; strings {@code unicode}/{@code object} (the object-dtype convention
 * of pandas before 3: plateau 4.6 turns such columns into {@code large_string} with pandas' {@code
 * str} dtype); binary {@code bytes}; date {@code date}; timestamps {@code datetime} or {@code
 * datetimetz} with the Arrow unit as numpy unit; time {@code time}; decimal {@code decimal};
 * list {@code list[<element>]}; struct {@code object}; null {@code empty}. {@code pandas_version}
 * names the pandas line whose conventions these are; pyarrow does not read it and plateau
 * replaces it before comparing schemas.
 */
public final class PandasMetadata {
  /** The key of the footer entry. */
  public static final String KEY = "pandas";
  /** The pandas version written: the last line whose string columns default to object dtype. */
  public static final String PANDAS_VERSION = "2.2.3";

  private static final ObjectMapper JSON = new ObjectMapper();

  private PandasMetadata() {}

  /**
   * The columns that an entry names as the frame's index ({@code index_columns}), such as {@code
   * __index_level_0__}, which pyarrow stores when a frame's index is not a plain range (plateau's
   * files of a partition cut out of a larger frame have one). A range index is stored as a
   * description, not as a column, and is not listed. An entry that is not JSON names none.
   */
  public static List<String> indexColumns(String json) {
    requireNonNull(json, "json is null");
    List<String> columns = new ArrayList<>();
    try {
      JsonNode index = JSON.readTree(json).path("index_columns");
      for (JsonNode column : index) {
        if (column.isTextual()) {
          columns.add(column.textValue());
        }
      }
    } catch (JsonProcessingException e) {
      return List.of();
    }
    return columns;
  }

  /** The entry's JSON for a schema whose fields are all DataFrame columns, in schema order. */
  public static String of(Schema schema) {
    requireNonNull(schema, "schema is null");
    ObjectNode root = JSON.createObjectNode();
    root.putArray("index_columns");
    ObjectNode columnIndex = root.putArray("column_indexes").addObject();
    columnIndex.putNull("name");
    columnIndex.putNull("field_name");
    columnIndex.put("pandas_type", "unicode");
    columnIndex.put("numpy_type", "object");
    columnIndex.putObject("metadata").put("encoding", "UTF-8");
    ArrayNode columns = root.putArray("columns");
    for (Field field : schema.getFields()) {
      ObjectNode column = columns.addObject();
      column.put("name", field.getName());
      column.put("field_name", field.getName());
      column.put("pandas_type", pandasType(field, field.getName()));
      column.put("numpy_type", numpyType(field.getType()));
      ObjectNode metadata = metadata(field.getType());
      if (metadata == null) {
        column.putNull("metadata");
      } else {
        column.set("metadata", metadata);
      }
    }
    root.putObject("attributes");
    ObjectNode creator = root.putObject("creator");
    creator.put("library", "ktk-flink");
    String version = PandasMetadata.class.getPackage().getImplementationVersion();
    creator.put("version", version == null ? "dev" : version);
    root.put("pandas_version", PANDAS_VERSION);
    try {
      return JSON.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot render JSON built in memory", e);
    }
  }

  private static String pandasType(Field field, String path) {
    ArrowType type = field.getType();
    switch (type.getTypeID()) {
      case Null:
        return "empty";
      case Bool:
        return "bool";
      case Int:
      case FloatingPoint:
        return numpyName(type);
      case Utf8:
      case LargeUtf8:
        return "unicode";
      case Binary:
      case LargeBinary:
      case FixedSizeBinary:
        return "bytes";
      case Date:
        return "date";
      case Timestamp:
        return ((ArrowType.Timestamp) type).getTimezone() == null ? "datetime" : "datetimetz";
      case Time:
        return "time";
      case Decimal:
        return "decimal";
      case List:
      case LargeList:
      case FixedSizeList:
        Field element = field.getChildren().get(0);
        return "list[" + pandasType(element, path + ".element") + "]";
      case Struct:
        return "object";
      default:
        throw new KtkValidationException(
            "Cannot describe column " + path + " of type " + ArrowTypeNames.name(field)
                + " for pandas: the type is not supported");
    }
  }

  private static String numpyType(ArrowType type) {
    switch (type.getTypeID()) {
      case Bool:
        return "bool";
      case Int:
      case FloatingPoint:
        return numpyName(type);
      case Timestamp:
        return "datetime64[" + unit(((ArrowType.Timestamp) type).getUnit()) + "]";
      default:
        return "object";
    }
  }

  private static ObjectNode metadata(ArrowType type) {
    if (type instanceof ArrowType.Timestamp && ((ArrowType.Timestamp) type).getTimezone() != null) {
      ObjectNode metadata = JSON.createObjectNode();
      metadata.put("timezone", ((ArrowType.Timestamp) type).getTimezone());
      return metadata;
    }
    if (type instanceof ArrowType.Decimal) {
      ObjectNode metadata = JSON.createObjectNode();
      metadata.put("precision", ((ArrowType.Decimal) type).getPrecision());
      metadata.put("scale", ((ArrowType.Decimal) type).getScale());
      return metadata;
    }
    return null;
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

  /** numpy's dtype name of an integer or float type ({@code int8}, {@code uint64}, {@code float64}). */
  private static String numpyName(ArrowType type) {
    if (type instanceof ArrowType.Int integer) {
      return (integer.getIsSigned() ? "int" : "uint") + integer.getBitWidth();
    }
    return switch (((ArrowType.FloatingPoint) type).getPrecision()) {
      case HALF -> "float16";
      case SINGLE -> "float32";
      case DOUBLE -> "float64";
    };
  }
}
