package io.ktk.flink.state.metadata;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * An entry of the metadata JSON's {@code indices}: either the key of an index file, which is what
 * plateau and this project write ({@code "x": "<uuid>/indices/x/<timestamp>.by-dataset-index.parquet"}),
 * or an index embedded in the JSON as value to labels ({@code "x": {"1": ["p=1/<file id>"]}}),
 * which plateau still reads.
 */
public sealed interface IndexReference {

  /** An index stored in its own Parquet file. */
  record External(String key) implements IndexReference {
    public External {
      requireNonNull(key, "key is null");
      if (key.isEmpty()) {
        throw new IllegalArgumentException("key is empty");
      }
    }
  }

  /**
   * An index embedded in the metadata. Values are kept as the strings the JSON holds (JSON object
   * keys are strings; msgpack keys of other types are converted as Python's {@code str()}); plateau
   * types them by the column's type when it loads the index.
   *
   * @param labelsByValue value -> partition labels holding it, sorted by value
   */
  record Embedded(NavigableMap<String, List<String>> labelsByValue) implements IndexReference {
    public Embedded {
      requireNonNull(labelsByValue, "labelsByValue is null");
      TreeMap<String, List<String>> copy = new TreeMap<>();
      for (Map.Entry<String, List<String>> e : labelsByValue.entrySet()) {
        copy.put(requireNonNull(e.getKey(), "value is null"), List.copyOf(e.getValue()));
      }
      labelsByValue = Collections.unmodifiableNavigableMap(copy);
    }
  }
}
