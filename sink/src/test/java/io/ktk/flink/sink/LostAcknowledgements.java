package io.ktk.flink.sink;

import io.ktk.flink.sink.config.ObjectStoreFactory;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.testing.ForwardingObjectStore;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * Lost acknowledgements of commits, for jobs of the MiniCluster (which runs in the test's JVM, so
 * plans live in static maps under a name and survive the job's restarts): the {@code n}-th log
 * entry that the stores of a plan create is created, and then the committer crashes as if it had
 * died before learning of it. Counted over every version, whoever else claims versions of the log
 * meanwhile; the restarted job must recognise the commit when it replays the checkpoint.
 */
final class LostAcknowledgements {
  private static final Pattern LOG_ENTRY = Pattern.compile(".*/_ktk_log/\\d{20}\\.json");
  private static final Map<String, Set<Integer>> PLANS = new ConcurrentHashMap<>();
  private static final Map<String, AtomicInteger> CLAIMS = new ConcurrentHashMap<>();
  private static final Map<String, Set<String>> LOST = new ConcurrentHashMap<>();

  private LostAcknowledgements() {}

  /** Plans a crash after the {@code claims}-th entries (counted from 1) the plan's stores create. */
  static void plan(String plan, Integer... claims) {
    PLANS.put(plan, Set.of(claims));
    CLAIMS.put(plan, new AtomicInteger());
    LOST.put(plan, ConcurrentHashMap.newKeySet());
  }

  /** The entries whose acknowledgement was lost. */
  static Set<String> lost(String plan) {
    return Set.copyOf(LOST.get(plan));
  }

  /** Opens the stores of {@code delegate} that lose the planned acknowledgements. */
  record Factory(ObjectStoreFactory delegate, String plan) implements ObjectStoreFactory {
    private static final long serialVersionUID = 1L;

    @Override
    public ObjectStore open() throws IOException {
      return new Store(delegate.open(), plan);
    }
  }

  private static final class Store extends ForwardingObjectStore {
    private final String plan;

    Store(ObjectStore delegate, String plan) {
      super(delegate);
      this.plan = plan;
    }

    @Override
    public boolean putIfAbsent(String key, byte[] data) throws IOException {
      boolean created = delegate.putIfAbsent(key, data);
      if (created && LOG_ENTRY.matcher(key).matches()) {
        int claim = CLAIMS.get(plan).incrementAndGet();
        if (PLANS.get(plan).contains(claim)) {
          LOST.get(plan).add(key);
          throw new Faults.InjectedFailure("injected crash after creating " + key + " (claim " + claim
              + "): the commit landed, its acknowledgement is lost");
        }
      }
      return created;
    }
  }
}
