package io.ktk.flink.state.commit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.ktk.flink.state.metadata.CommonMetadataFile;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.metadata.DatasetMetadataJson;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
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
 * it wrote for that dataset, to skip unchanged ones, with their encoded pages, to encode only the
 * values whose labels changed ({@link ViewIndexFiles}), and the serialised partitions of the
 * metadata JSON it wrote last ({@link ViewPartitions}), to serialise only the partitions that
 * changed. The index files are written on another thread, beside the JSON.
 */
public final class PlateauPublisher {
  /** Key in the published metadata naming the log version the view shows. */
  public static final String LOG_VERSION_KEY = "ktk_flink_log_version";

  private Schema publishedSchema;
  private final ViewPartitions viewPartitions = new ViewPartitions();
  private final ViewIndexFiles indexFiles;

  public PlateauPublisher() {
    this(Clock.systemUTC());
  }

  PlateauPublisher(Clock clock) {
    this.indexFiles = new ViewIndexFiles(clock);
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
    indexFiles.forgetPublished(); // a derived state's index may differ from the version's at the same version
    publishVersion(log.store(), view, log.viewCheck());
  }

  private void publishVersion(ObjectStore store, DatasetState state, PublishedViewCheck viewCheck)
      throws IOException {
    ChangeFiles.checkNone(state);
    String uuid = state.uuid();
    // The index files are written on another thread while this one writes the JSON, which
    // appears (its stream closes) only once they are stored: it names them.
    ViewIndexFiles.Pending indices = indexFiles.start(store, state);
    String key = DatasetKeys.metadataJsonKey(uuid);
    long length;
    ObjectStore.ObjectOutputStream out = null;
    try {
      if (!state.schema().equals(publishedSchema)) {
        CommonMetadataFile.write(store, DatasetKeys.commonMetadataKey(uuid), state.schema(), state.partitionKeys());
        publishedSchema = state.schema();
      }
      // Only the partitions whose files changed since the last publication are serialised again.
      ViewPartitions.Serialized partitions = viewPartitions.serialize(state);
      Map<String, JsonNode> metadata = new HashMap<>(state.metadata());
      metadata.put(LOG_VERSION_KEY, LongNode.valueOf(state.version()));
      metadata.put(ViewDigest.METADATA_KEY,
          TextNode.valueOf(ViewDigest.of(partitions.digest(), partitions.files(), indices.keys())));
      out = store.create(key);
      length = DatasetMetadataJson.write(out, uuid, state.partitionKeys(), partitions.json(), indices.keys(), metadata);
      indices.await();
    } catch (IOException | RuntimeException | Error e) {
      if (out != null) {
        out.abort();
      }
      indices.awaitQuietly();
      throw e;
    }
    out.close();
    // Another writer may have written the view since: only an object of our size is taken for ours.
    store.head(key).filter(written -> written.size() == length).ifPresent(viewCheck::published);
  }
}
