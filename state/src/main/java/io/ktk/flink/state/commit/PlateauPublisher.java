package io.ktk.flink.state.commit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.ktk.flink.state.metadata.CommonMetadataFile;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.metadata.DatasetMetadataJson;
import io.ktk.flink.state.metadata.IndexFileWriter;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.time.Clock;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Publishes the plateau view of a committed version: index files, {@code _common_metadata} and
 * the metadata JSON that plateau and Kartothek read. The JSON is written last and atomically, so
 * a plateau reader sees either the previous version or this one, whole.
 *
 * <p>After writing it looks for a newer version and publishes that one too, so that whatever
 * the interleaving of concurrent committers the view ends at the latest version: each publisher
 * checks after its own write, so the last write is always followed by a check that sees the
 * latest version (docs/commit-log.md, "Publishing").
 *
 * <p>One instance per {@link CommitLog} ({@link CommitLog#publish()}): it remembers the index files
 * it wrote for that dataset, to skip unchanged ones, with the encoded pages of each ({@link
 * IndexFileWriter}), to encode only the values whose labels changed, and the serialised partitions
 * of the metadata JSON it wrote last ({@link ViewPartitions}), to serialise only the partitions
 * that changed.
 */
public final class PlateauPublisher {
  /** Key in the published metadata naming the log version the view shows. */
  public static final String LOG_VERSION_KEY = "ktk_flink_log_version";

  private final Clock clock;
  private final Map<String, PublishedIndex> publishedIndices = new HashMap<>();
  private final Map<String, IndexFileWriter> indexWriters = new HashMap<>();
  private Schema publishedSchema;
  private final ViewPartitions viewPartitions = new ViewPartitions();

  private record PublishedIndex(long changedAt, String key) {}

  public PlateauPublisher() {
    this(Clock.systemUTC());
  }

  PlateauPublisher(Clock clock) {
    this.clock = clock;
  }

  /**
   * Publishes the log's current version, then any newer one, until no newer version exists.
   *
   * @return the version the published view shows at the end
   */
  public long publish(CommitLog log) throws IOException {
    while (true) {
      // Never overwrite what another writer changed in the view: the log takes it over first.
      log.adoptForeignChanges();
      DatasetState state = log.state();
      publishVersion(log.store(), state, log.viewCheck());
      long published = state.version();
      if (log.refresh().version() == published) {
        return published;
      }
    }
  }

  /**
   * Publishes {@code view}, a state of the log's dataset that the caller derived from version {@code
   * view.version()} with files holding the same rows (a fold, {@code docs/cdc.md}), and no newer
   * version: the view of a dataset with a primary key lists folded files only.
   */
  public void publishView(CommitLog log, DatasetState view) throws IOException {
    log.adoptForeignChanges();
    publishedIndices.clear(); // a derived state's index may differ from the version's at the same version
    publishVersion(log.store(), view, log.viewCheck());
  }

  private void publishVersion(ObjectStore store, DatasetState state, PublishedViewCheck viewCheck)
      throws IOException {
    ChangeFiles.checkNone(state);
    String uuid = state.uuid();
    Map<String, String> indexKeys = new TreeMap<>();
    for (String column : state.indexColumns()) {
      PublishedIndex previous = publishedIndices.get(column);
      long changedAt = state.indexChangedAt(column);
      if (previous == null || previous.changedAt() != changedAt) {
        String key = DatasetKeys.indexFileKey(uuid, column, clock.instant());
        IndexFileWriter writer = indexWriter(column, state.schema().findField(column).getType());
        store.put(key, writer.write(typedValues(state, column)));
        previous = new PublishedIndex(changedAt, key);
        publishedIndices.put(column, previous);
      }
      indexKeys.put(column, previous.key());
    }
    if (!state.schema().equals(publishedSchema)) {
      CommonMetadataFile.write(store, DatasetKeys.commonMetadataKey(uuid), state.schema(), state.partitionKeys());
      publishedSchema = state.schema();
    }
    // Only the partitions whose files changed since the last publication are serialised again.
    ViewPartitions.Serialized partitions = viewPartitions.serialize(state);
    Map<String, JsonNode> metadata = new HashMap<>(state.metadata());
    metadata.put(LOG_VERSION_KEY, LongNode.valueOf(state.version()));
    metadata.put(ViewDigest.METADATA_KEY,
        TextNode.valueOf(ViewDigest.of(partitions.digest(), partitions.files(), indexKeys)));
    String key = DatasetKeys.metadataJsonKey(uuid);
    byte[] json = DatasetMetadataJson.write(uuid, state.partitionKeys(), partitions.json(), indexKeys, metadata);
    store.put(key, json);
    // Another writer may have written the view since: only an object of our size is taken for ours.
    store.head(key).filter(written -> written.size() == json.length).ifPresent(viewCheck::published);
  }

  /** The writer of the index files of {@code column}: it reuses the pages of the values that did not change. */
  private IndexFileWriter indexWriter(String column, ArrowType type) {
    IndexFileWriter writer = indexWriters.get(column);
    if (writer == null || !writer.type().equals(type)) {
      writer = new IndexFileWriter(column, type, ParquetWriteOptions.defaults());
      indexWriters.put(column, writer);
    }
    return writer;
  }

  /** An index with its values as the typed values an index file holds; the label sets are not copied. */
  private static Map<Object, Collection<String>> typedValues(DatasetState state, String column) {
    Map<Object, Collection<String>> values = new LinkedHashMap<>();
    state.forEachIndexValue(column, values::put);
    return values;
  }
}
