package io.ktk.flink.sink;

import io.ktk.flink.sink.config.ObjectStoreFactory;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The builders' checks of a sink against what its store holds. They run where the job is built,
 * which may not reach the store (credentials or network only on the cluster): then the check is
 * left to the writers, which make it again when the job starts. A rule that fails is reported at
 * once either way.
 */
final class StoreChecks {
  private static final Logger LOG = LoggerFactory.getLogger(StoreChecks.class);

  /** A check that reads the store and throws {@link KtkValidationException} when a rule fails. */
  @FunctionalInterface
  interface Check {
    void run(ObjectStore store) throws IOException;
  }

  private StoreChecks() {}

  static void whereReadable(ObjectStoreFactory factory, String what, Check check) {
    ObjectStore store;
    try {
      store = factory.open();
    } catch (IOException | RuntimeException e) {
      LOG.info("Cannot open the store of {} while building the sink ({}); the writers check it when the job starts",
          what, e.toString());
      return;
    }
    try (store) {
      check.run(store);
    } catch (KtkValidationException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      LOG.info("Cannot read {} in {} while building the sink ({}); the writers check it when the job starts", what,
          store.url(), e.toString());
    }
  }
}
