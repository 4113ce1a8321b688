package io.ktk.flink.state.store;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The store contract over a local directory. */
class LocalObjectStoreContractTest extends ObjectStoreContractTest {
  @TempDir Path dir;

  @Override
  protected ObjectStore newStore() throws IOException {
    return ObjectStores.open(dir.toUri().toString());
  }
}
