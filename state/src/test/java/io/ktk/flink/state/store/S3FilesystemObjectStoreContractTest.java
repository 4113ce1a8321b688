package io.ktk.flink.state.store;

import io.ktk.flink.state.testing.S3Proxy;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The store contract on s3proxy's {@code filesystem} backend, in a temporary directory. */
class S3FilesystemObjectStoreContractTest extends S3ObjectStoreContractTest {
  @RegisterExtension static final S3Proxy S3 = S3Proxy.onFilesystem();

  @Override
  protected S3Proxy proxy() {
    return S3;
  }

  /** The backend maps "a/b" to a file below the file "a"; the operating system's ENOTDIR becomes a 500. */
  @Override
  @Test
  @Disabled("s3proxy 4.1.0's filesystem backend answers 500 for a key below an existing object")
  void aKeyBelowAnObjectIsAbsent() {}
}
