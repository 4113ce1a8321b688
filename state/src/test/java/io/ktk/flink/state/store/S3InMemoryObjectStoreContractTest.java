package io.ktk.flink.state.store;

import io.ktk.flink.state.testing.S3Proxy;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The store contract on s3proxy's in-memory ({@code transient}) backend. */
class S3InMemoryObjectStoreContractTest extends S3ObjectStoreContractTest {
  @RegisterExtension static final S3Proxy S3 = S3Proxy.inMemory();

  @Override
  protected S3Proxy proxy() {
    return S3;
  }
}
