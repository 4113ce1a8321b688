package io.ktk.flink.state.commit;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.metadata.CommonMetadataFile;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.metadata.DatasetMetadata;
import io.ktk.flink.state.metadata.IndexFile;
import io.ktk.flink.state.metadata.IndexReference;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.metadata.PartitionValues;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.types.TypeNormalization;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Reads a dataset as plateau published it (metadata JSON or msgpack, {@code _common_metadata},
 * index files) into the log entry that adopts it as version 0. Used to adopt a plateau dataset
 * before the first commit, and to read one that has no log without writing anything.
 */
final class PlateauImport {
  private static final Field STRING = new Field("value", FieldType.nullable(ArrowType.Utf8.INSTANCE), null);

  private PlateauImport() {}

  /** The adopting entry, or empty when no plateau metadata exists for {@code uuid}. */
  static Optional<LogEntry> adoptionEntry(ObjectStore store, String uuid, Instant now) throws IOException {
    Optional<DatasetMetadata> published = DatasetMetadata.load(store, uuid);
    if (published.isEmpty()) {
      return Optional.empty();
    }
    DatasetMetadata metadata = published.get();
    String location = store.url() + DatasetKeys.metadataJsonKey(uuid);
    // Normalized like every committed schema: plateau's naive timestamp[ns] becomes timestamp[us].
    Schema schema = TypeNormalization.normalize(CommonMetadataFile.read(store, DatasetKeys.commonMetadataKey(uuid)));
    List<DataFile> files = new ArrayList<>();
    metadata.fileKeys().forEach((label, key) -> {
      DataFile file = new DataFile(label, -1, -1, null);
      if (!file.key(uuid).equals(key)) {
        throw new CorruptDatasetException("Cannot adopt dataset '" + uuid + "' from " + location + ": partition '"
            + label + "' has file " + key + " where " + file.key(uuid) + " is expected");
      }
      files.add(file);
    });
    Map<String, Map<IndexValue, List<String>>> indices = new LinkedHashMap<>();
    for (Map.Entry<String, IndexReference> index : metadata.indices().entrySet()) {
      String column = index.getKey();
      Field field = schema.getFields().stream().filter(f -> f.getName().equals(column)).findFirst()
          .orElseThrow(() -> new CorruptDatasetException("Cannot adopt dataset '" + uuid + "' from " + location
              + ": it has an index on column '" + column + "', which is not in its _common_metadata"));
      if (metadata.partitionKeys().contains(column)) {
        continue; // partition columns are indexed by the labels themselves
      }
      indices.put(column, readIndex(store, uuid, field, index.getValue()));
    }
    LogEntry entry = new LogEntry(0, now, null, OptionalLong.empty(), LogOperation.ADOPT, metadata.partitionKeys(),
        List.copyOf(indices.keySet()), schema, files, List.of(), indices, metadata.metadata());
    return Optional.of(entry);
  }

  private static Map<IndexValue, List<String>> readIndex(
      ObjectStore store, String uuid, Field field, IndexReference ref)
      throws IOException {
    if (ref instanceof IndexReference.External external) {
      Map<IndexValue, List<String>> read = new LinkedHashMap<>();
      IndexFile.read(store, external.key(), field.getName(), field.getType())
          .forEach((value, labels) -> read.put(IndexValue.of(value), labels));
      return read;
    }
    // Embedded indices hold values as the strings Python's str() gives; type them as partition values are.
    Map<IndexValue, List<String>> typed = new LinkedHashMap<>();
    ((IndexReference.Embedded) ref).labelsByValue().forEach((text, labels) -> typed.put(
        IndexValue.of(PartitionValues.decode(uuid, field, PartitionValues.encode(STRING, text))), labels));
    return typed;
  }
}
