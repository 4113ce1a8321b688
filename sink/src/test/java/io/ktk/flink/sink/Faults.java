package io.ktk.flink.sink;

import io.ktk.flink.sink.config.ObjectStoreFactory;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.testing.ForwardingObjectStore;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.table.data.RowData;

/**
 * Failures injected into jobs of the MiniCluster, which runs in the test's JVM: plans live in
 * static maps under a name, so that operators and stores deserialized in tasks find them again
 * after every restart.
 */
final class Faults {
  private static final Map<String, int[]> RECORD_PLANS = new ConcurrentHashMap<>();
  private static final Map<String, AtomicInteger> RECORD_FAILURES = new ConcurrentHashMap<>();
  private static final Map<String, Map<Long, When>> COMMIT_PLANS = new ConcurrentHashMap<>();
  private static final Map<String, Set<Long>> COMMIT_CRASHES = new ConcurrentHashMap<>();

  /** Whether a crash at a commit happens before the log entry is written or after. */
  enum When { BEFORE, AFTER }

  /** A failure the plan asked for. */
  static final class InjectedFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InjectedFailure(String message) {
      super(message);
    }
  }

  private Faults() {}

  /**
   * Plans failures of a {@link FailingMap}: failure {@code i} strikes in the subtask that first
   * counts {@code afterRecords[i]} records since it (re)started, once the failures before it
   * struck.
   */
  static void planRecordFailures(String plan, int... afterRecords) {
    RECORD_PLANS.put(plan, afterRecords.clone());
    RECORD_FAILURES.put(plan, new AtomicInteger());
  }

  static int recordFailures(String plan) {
    return RECORD_FAILURES.get(plan).get();
  }

  /**
   * A source's pace for the restore tests: {@code step} records per completed checkpoint until the
   * plan's first failure struck, then everything at once, so that a restored job reaches end of
   * input before its first checkpoint after the restore completes.
   */
  static RateLimiterStrategy gatedUntilFailure(String plan, int step) {
    return parallelism -> recordFailures(plan) == 0
        ? RateLimiterStrategy.perCheckpoint(step).createRateLimiter(parallelism)
        : () -> CompletableFuture.completedFuture(null);
  }

  /** Plans crashes of the committer: the first claim of each version fails as {@link When} says. */
  static void planCommitCrashes(String plan, Map<Long, When> versions) {
    COMMIT_PLANS.put(plan, Map.copyOf(versions));
    COMMIT_CRASHES.put(plan, ConcurrentHashMap.newKeySet());
  }

  static Set<Long> commitCrashes(String plan) {
    return Set.copyOf(COMMIT_CRASHES.get(plan));
  }

  /** Passes records on and throws where the plan says. */
  static final class FailingMap extends RichMapFunction<RowData, RowData> {
    private static final long serialVersionUID = 1L;
    private final String plan;
    private transient long records;

    FailingMap(String plan) {
      this.plan = plan;
    }

    @Override
    public void open(OpenContext openContext) {
      records = 0;
    }

    @Override
    public RowData map(RowData row) {
      records++;
      int[] thresholds = RECORD_PLANS.get(plan);
      AtomicInteger failures = RECORD_FAILURES.get(plan);
      int failure = failures.get();
      if (failure < thresholds.length && records == thresholds[failure] && failures.compareAndSet(failure, failure + 1)) {
        throw new InjectedFailure("injected failure " + (failure + 1) + " of " + thresholds.length + " after "
            + records + " records in subtask " + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask());
      }
      return row;
    }
  }

  /** Opens the stores of a factory wrapped by {@link CrashingStore}. */
  record CrashingStoreFactory(ObjectStoreFactory delegate, String plan) implements ObjectStoreFactory {
    private static final long serialVersionUID = 1L;

    @Override
    public ObjectStore open() throws IOException {
      return new CrashingStore(delegate.open(), plan);
    }
  }

  /**
   * A store that crashes (throws an unchecked {@link InjectedFailure}, which nothing retries) at
   * the first claim of each planned version of a commit log, before or after creating the entry:
   * the committer then fails between a completed checkpoint and its commit, or after the commit
   * landed but before Flink learned of it.
   */
  static final class CrashingStore extends ForwardingObjectStore {
    private static final Pattern LOG_ENTRY = Pattern.compile(".*/_ktk_log/(\\d{20})\\.json");
    private final String plan;

    CrashingStore(ObjectStore delegate, String plan) {
      super(delegate);
      this.plan = plan;
    }

    @Override
    public boolean putIfAbsent(String key, byte[] data) throws IOException {
      Matcher entry = LOG_ENTRY.matcher(key);
      if (entry.matches()) {
        long version = Long.parseLong(entry.group(1));
        When when = COMMIT_PLANS.get(plan).get(version);
        if (when != null && COMMIT_CRASHES.get(plan).add(version)) {
          if (when == When.AFTER) {
            delegate.putIfAbsent(key, data);
          }
          throw new InjectedFailure("injected crash " + when + " claiming version " + version);
        }
      }
      return delegate.putIfAbsent(key, data);
    }
  }
}
