package io.ktk.flink.sink.committer;

import com.fasterxml.jackson.databind.JsonNode;
import io.ktk.flink.sink.committable.FileBatch;
import io.ktk.flink.sink.compaction.CompactionSettings;
import io.ktk.flink.sink.config.KartothekSinkConfig;
import io.ktk.flink.sink.config.KartothekSinkOptions;
import io.ktk.flink.sink.config.ObjectStoreFactory;
import io.ktk.flink.sink.config.WriteMode;
import io.ktk.flink.sink.maintenance.MaintenanceRunner;
import io.ktk.flink.sink.maintenance.MaintenanceSettings;
import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.KtkException;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.CommitResult;
import io.ktk.flink.state.commit.CubeCommitLog;
import io.ktk.flink.state.commit.CubeVersions;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.commit.PublishedViewCheck;
import io.ktk.flink.state.metadata.CubeMetadataKeys;
import io.ktk.flink.state.metadata.CubeNames;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.StoreRefusedException;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits each checkpoint's {@link FileBatch}es, one per dataset, each as one version of its
 * dataset through the {@link CommitLog} (append, or replace-partitions), then publishes the plateau
 * view of the new versions.
 *
 * <p>A commit carries the batch's writer id and checkpoint id, so a batch replayed after a
 * restore (its checkpoint completed, the job failed before or after its commit) is committed
 * when it is not in the log yet and acknowledged when it is. Batches arrive in checkpoint order,
 * all batches of one checkpoint in one call; a failure is retried in place (Flink's committer
 * retries, a short pause between them) or fails the job, never skipped, since a later checkpoint
 * committed first would make the log take this one for a replay.
 *
 * <p>For a cube, the batches of one checkpoint are one transaction: each dataset's commit is
 * marked as part of it ({@code cube_transaction}), the cube's metadata keys are set where the
 * dataset lacks them, and once every dataset is committed the transaction is recorded in the
 * {@link CubeCommitLog}; only then are the plateau views published. When any step fails, all
 * batches of the checkpoint are retried together: the datasets committed already acknowledge
 * theirs, the others commit, and the record is written. Cube readers ({@link CubeVersions}) do not
 * see a dataset's part of the transaction before the record exists.
 *
 * <p>Every batch (by default; {@code commit.verify-files-older-than} spares young ones) is checked
 * first: every file of it must exist ({@link PartFileCheck}), for every batch of the checkpoint
 * before any is committed, since garbage collection may have deleted them as unreferenced files
 * (a job restored after being down for a while, or GC run with too short a safety age). When some
 * are missing, nothing of the checkpoint is committed and the job fails with {@link
 * MissingPartFilesException}.
 *
 * <p>The plateau views are published off the commit path by a {@link ViewPublisher}: a commit
 * signals it and returns.
 *
 * <ul>
 *   <li>Store errors, lost races beyond the commit log's attempts and unknown commit states:
 *       retried; after Flink's retries the job fails over and the batch is replayed.
 *   <li>The batch breaks a rule against the dataset as committed now (another writer changed a
 *       column's type; a file is committed already), or its files are gone: the job fails without
 *       restarts, because a replay would fail the same way.
 *   <li>Publishing fails: the publisher logs it, counts it and tries again; commits go on.
 * </ul>
 */
public final class KartothekCommitter implements Committer<FileBatch> {
  private static final Logger LOG = LoggerFactory.getLogger(KartothekCommitter.class);
  private static final long MAX_PAUSE_MILLIS = 5_000;
  /** How far back a replayed transaction's entry is searched for, to record its version. */
  private static final int MAX_ENTRIES_SEARCHED = 10_000;

  private final ObjectStoreFactory storeFactory;
  private final Map<String, KartothekSinkConfig> configs = new LinkedHashMap<>();
  private final CubeSpec cube;
  private final CommitterMetrics metrics;
  private final PartFileCheck fileCheck;
  private final Clock clock;
  /** Per dataset, the view check its commit log and its publisher share. */
  private final Map<String, PublishedViewCheck> viewChecks = new HashMap<>();
  private ObjectStore store;
  private final Map<String, CommitLog> logs = new HashMap<>();
  private final MaintenanceSettings maintenanceSettings;
  private final MetricGroup metricGroup;
  private ViewPublisher publisher;
  private MaintenanceRunner maintenance;

  public KartothekCommitter(KartothekSinkConfig config, MetricGroup metricGroup) {
    this(List.of(config), null, metricGroup);
  }

  /**
   * A committer of the datasets of {@code configs} (of cube {@code cube}, or null) that runs the
   * sink's maintenance ({@link MaintenanceRunner}) besides.
   */
  public KartothekCommitter(List<KartothekSinkConfig> configs, CubeSpec cube, MetricGroup metricGroup,
      MaintenanceSettings maintenance) {
    this(configs, cube, metricGroup, Clock.systemUTC(), maintenance);
  }

  /**
   * A committer of the datasets of {@code configs}; with {@code cube}, they are datasets of that
   * cube and each checkpoint is committed as one cube transaction.
   */
  public KartothekCommitter(List<KartothekSinkConfig> configs, CubeSpec cube, MetricGroup metricGroup) {
    this(configs, cube, metricGroup, Clock.systemUTC());
  }

  /** As above, with the clock that tells a batch's age and when to publish (tests control it). */
  public KartothekCommitter(List<KartothekSinkConfig> configs, CubeSpec cube, MetricGroup metricGroup, Clock clock) {
    this(configs, cube, metricGroup, clock, MaintenanceSettings.disabled());
  }

  /** As above, with maintenance. */
  public KartothekCommitter(List<KartothekSinkConfig> configs, CubeSpec cube, MetricGroup metricGroup, Clock clock,
      MaintenanceSettings maintenance) {
    this.maintenanceSettings = maintenance;
    this.metricGroup = metricGroup;
    configs.forEach(config -> this.configs.put(config.dataset(), config));
    this.storeFactory = configs.get(0).store();
    this.cube = cube;
    this.metrics = new CommitterMetrics(metricGroup, clock);
    configs.forEach(config -> viewChecks.put(config.dataset(), new PublishedViewCheck(config.dataset())));
    this.fileCheck = new PartFileCheck(clock);
    this.clock = clock;
  }

  @Override
  public void commit(Collection<CommitRequest<FileBatch>> requests) throws IOException, InterruptedException {
    Map<Long, List<CommitRequest<FileBatch>>> byCheckpoint = new TreeMap<>();
    for (CommitRequest<FileBatch> request : requests) {
      byCheckpoint.computeIfAbsent(request.getCommittable().checkpointId(), c -> new ArrayList<>()).add(request);
    }
    boolean heldBack = false;
    for (List<CommitRequest<FileBatch>> checkpoint : byCheckpoint.values()) {
      if (heldBack) {
        // A later checkpoint committed before an earlier one would make the log take the earlier
        // one, when it is retried, for a replay: it waits until the earlier one is committed.
        checkpoint.forEach(CommitRequest::retryLater);
      } else {
        heldBack = !commitCheckpoint(checkpoint);
      }
    }
  }

  /** Commits the batches of one checkpoint; false when it failed and is retried later. */
  private boolean commitCheckpoint(List<CommitRequest<FileBatch>> requests) throws InterruptedException {
    List<CommitRequest<FileBatch>> ordered = requests.stream()
        .sorted(Comparator.comparing(request -> request.getCommittable().dataset()))
        .toList();
    int retries = ordered.stream().mapToInt(CommitRequest::getNumberOfRetries).max().orElse(0);
    if (retries > 0) {
      Thread.sleep(Math.min(MAX_PAUSE_MILLIS, 50L << Math.min(retries, 10)));
    }
    long start = System.nanoTime();
    FileBatch first = ordered.get(0).getCommittable();
    try {
      Map<String, Long> versions = new TreeMap<>();
      Map<String, Long> committed = new HashMap<>();
      List<CommitRequest<FileBatch>> acknowledged = new ArrayList<>();
      for (CommitRequest<FileBatch> request : ordered) {
        FileBatch batch = request.getCommittable();
        fileCheck.verify(store(), log(batch.dataset()), batch, config(batch).verifyFilesOlderThan(),
            cube == null ? null : cube.name());
      }
      for (CommitRequest<FileBatch> request : ordered) {
        FileBatch batch = request.getCommittable();
        CommitLog commitLog = log(batch.dataset());
        CommitResult result = commitLog.commit(toDatasetChange(batch, commitLog));
        long version = result.version();
        if (result.alreadyCommitted()) {
          LOG.info("Dataset '{}': {} was committed before; acknowledged", batch.dataset(), batch);
          acknowledged.add(request);
          if (cube != null) {
            long found = CubeVersions.versionOf(store, batch.dataset(), batch.writerId(), batch.checkpointId(),
                result.version(), MAX_ENTRIES_SEARCHED);
            version = found >= 0 ? found : result.version();
          }
        } else {
          LOG.info("Dataset '{}': committed {} as version {}", batch.dataset(), batch, result.version());
        }
        committed.put(batch.dataset(), version);
        if (cube != null) {
          versions.put(CubeNames.parse(batch.dataset()).datasetId(), version);
        }
      }
      if (cube != null) {
        CubeCommitLog.Record record = CubeCommitLog.of(store, cube.name())
            .record(first.writerId(), first.checkpointId(), versions);
        LOG.info("Cube '{}': checkpoint {} of writer {} committed {} (cube log version {})", cube.name(),
            first.checkpointId(), first.writerId(), versions, record.version());
      }
      for (CommitRequest<FileBatch> request : ordered) {
        String dataset = request.getCommittable().dataset();
        metrics.committed(committed.get(dataset), (System.nanoTime() - start) / 1_000_000);
        publisher().committed(dataset);
        if (maintenance != null) {
          maintenance.committed(dataset);
        }
      }
      acknowledged.forEach(CommitRequest::signalAlreadyCommitted);
      return true;
    } catch (KtkValidationException | CorruptDatasetException | MissingPartFilesException
        | StoreRefusedException e) {
      throw new SuppressRestartsException(e);
    } catch (IOException | KtkException e) {
      LOG.warn("Cannot commit checkpoint {} ({}; attempt {}); retrying", first.checkpointId(),
          ordered.stream().map(r -> r.getCommittable().toString()).toList(), retries + 1, e);
      reset();
      ordered.forEach(CommitRequest::retryLater);
      return false;
    }
  }

  /** The publisher of the views, started with the first commit, and with it the maintenance. */
  private ViewPublisher publisher() {
    if (publisher == null) {
      String name = String.join(", ", configs.keySet());
      ViewPublisher started = new ViewPublisher(storeFactory, viewChecks::get,
          dataset -> configs.get(dataset).publishMinInterval(), dataset -> foldSettings(configs.get(dataset)), clock,
          metrics, name);
      publisher = started;
      if (maintenanceSettings.enabled()) {
        maintenance = new MaintenanceRunner(storeFactory, maintenanceSettings, viewChecks::get, started::committed,
            clock, metricGroup, name);
      }
    }
    return publisher;
  }

  /** A fold before a publication writes files as the sink does (codec, row group size). */
  private static CompactionSettings foldSettings(KartothekSinkConfig config) {
    Configuration settings = new Configuration();
    settings.set(KartothekSinkOptions.COMPRESSION, config.compression());
    settings.set(KartothekSinkOptions.ROW_GROUP_SIZE, new MemorySize(config.rowGroupSizeBytes()));
    return CompactionSettings.of(settings);
  }

  /** Waits until the views of every commit so far are published (tests). */
  boolean awaitPublished(long timeoutMillis) throws InterruptedException {
    return publisher == null || publisher.awaitIdle(timeoutMillis);
  }

  /** The change a batch makes to its dataset. */
  private DatasetChange toDatasetChange(FileBatch batch, CommitLog log) {
    KartothekSinkConfig config = config(batch);
    var change = config.writeMode() == WriteMode.REPLACE_PARTITIONS
        ? DatasetChange.replacePartitions(batch.partitionColumns(), batch.schema(),
            batch.files(), batch.partitions())
        : DatasetChange.append(batch.partitionColumns(), batch.schema(), batch.files());
    change = change
        .withIndex(batch.indexColumns(), batch.index())
        .withWriter(batch.writerId(), batch.checkpointId());
    Map<String, JsonNode> metadata = new TreeMap<>();
    if (config.hasPrimaryKey()) {
      // The first commit stores the key (docs/cdc.md); the log refuses a key that differs from the dataset's.
      metadata.put(PrimaryKey.METADATA_KEY, PrimaryKey.toJson(config.primaryKey()));
    }
    if (cube != null) {
      metadata.putAll(CubeMetadataKeys.datasetMetadata(cube, CubeNames.parse(batch.dataset()).datasetId()));
    }
    metadata.entrySet().removeIf(key -> key.getValue().equals(log.state().metadata().get(key.getKey())));
    change = change.withMetadata(metadata);
    return cube == null ? change : change.withCubeTransaction(cube.name());
  }

  private KartothekSinkConfig config(FileBatch batch) {
    KartothekSinkConfig config = configs.get(batch.dataset());
    if (config == null) {
      throw new IllegalStateException("Cannot commit " + batch + ": this sink writes " + configs.keySet());
    }
    return config;
  }

  private ObjectStore store() throws IOException {
    if (store == null) {
      store = storeFactory.open();
    }
    return store;
  }

  private CommitLog log(String dataset) throws IOException {
    store();
    CommitLog log = logs.get(dataset);
    if (log == null) {
      log = CommitLog.open(store, dataset, CommitLogOptions.DEFAULTS, viewChecks.get(dataset));
      logs.put(dataset, log);
    }
    return log;
  }

  /** After a failure, the next attempt reads the logs afresh. */
  private void reset() {
    try {
      release();
    } catch (IOException | RuntimeException e) {
      LOG.warn("Cannot close the store of {}", configs.keySet(), e);
    }
  }

  /**
   * Publishes the views of the last commits (whatever {@code publish.min-interval}), so that plateau
   * readers of a finished bounded job see its last version; a failure here loses no data (the
   * commits are in the log, and the next publication of any writer catches up).
   */
  @Override
  public void close() throws IOException {
    try {
      if (maintenance != null) {
        maintenance.close(); // before the publisher: a compaction it commits is then published
      }
      if (publisher != null) {
        publisher.close();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      maintenance = null;
      publisher = null;
      release();
    }
  }

  private void release() throws IOException {
    logs.clear();
    if (store != null) {
      ObjectStore closing = store;
      store = null;
      closing.close();
    }
  }
}
