package io.ktk.flink.state.testing;

import static io.ktk.flink.state.store.StoreOptions.ACCESS_KEY_ID;
import static io.ktk.flink.state.store.StoreOptions.ENDPOINT;
import static io.ktk.flink.state.store.StoreOptions.PATH_STYLE;
import static io.ktk.flink.state.store.StoreOptions.REGION;
import static io.ktk.flink.state.store.StoreOptions.SECRET_ACCESS_KEY;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.services.s3.model.MultipartUpload;

/**
 * An S3 service in this JVM (s3proxy) on 127.0.0.1 and a free port, with one bucket, {@value
 * #BUCKET}, and SigV4 authentication. The backend is in memory ({@link #inMemory()}) or a temporary
 * directory ({@link #onFilesystem()}); both evaluate {@code If-None-Match: *} atomically.
 *
 * <p>As a JUnit 5 extension it starts before the first test of the class and stops after the
 * last:
 *
 * <pre>{@code
 * @RegisterExtension static final S3Proxy S3 = S3Proxy.inMemory();
 *
 * try (ObjectStore store = ObjectStores.open(S3.url("my-test"), S3.options())) { ... }
 * }</pre>
 *
 * Elsewhere, {@link #start()} it and {@link #close()} it. Tests sharing the proxy keep apart by
 * using different prefixes.
 */
public final class S3Proxy implements BeforeAllCallback, AfterAllCallback, AutoCloseable {
  public static final String BUCKET = "ktk-test";
  public static final String ACCESS_KEY = "ktk-test-access";
  public static final String SECRET_KEY = "ktk-test-secret";
  public static final String REGION_NAME = "us-east-1";

  private final boolean filesystem;
  private Path directory;
  private BlobStore blobStore;
  private org.gaul.s3proxy.S3Proxy proxy;
  private URI endpoint;

  private S3Proxy(boolean filesystem) {
    this.filesystem = filesystem;
  }

  /** A proxy whose objects live in memory (s3proxy's {@code transient} backend). */
  public static S3Proxy inMemory() {
    return new S3Proxy(false);
  }

  /** A proxy whose objects are files in a temporary directory (s3proxy's {@code filesystem} backend). */
  public static S3Proxy onFilesystem() {
    return new S3Proxy(true);
  }

  /** Starts the proxy and creates the bucket; does nothing when already started. */
  public synchronized S3Proxy start() {
    if (proxy != null) {
      return this;
    }
    try {
      Properties properties = new Properties();
      if (filesystem) {
        directory = Files.createTempDirectory("ktk-s3proxy-");
        properties.setProperty("jclouds.filesystem.basedir", directory.toString());
      }
      blobStore = BlobStores.create(filesystem ? "filesystem" : "transient", properties);
      blobStore.createContainer(BUCKET);
      proxy =
          org.gaul.s3proxy.S3Proxy.builder()
              .blobStore(blobStore)
              .endpoint(URI.create("http://127.0.0.1:0"))
              .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
              // Requests have completed when a test class ends: skip the graceful drain.
              .stopTimeout(0)
              .build();
      proxy.start(); // Jetty's start returns once the connector listens
      endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
      return this;
    } catch (Exception e) {
      close();
      throw new IllegalStateException("Cannot start s3proxy: " + e.getMessage(), e);
    }
  }

  /** {@code http://127.0.0.1:<port>}. */
  public URI endpoint() {
    checkStarted();
    return endpoint;
  }

  /** {@code s3://ktk-test/<prefix>}, or the bucket itself for an empty prefix. */
  public String url(String prefix) {
    return prefix.isEmpty() ? "s3://" + BUCKET : "s3://" + BUCKET + "/" + prefix;
  }

  /** The store options that reach this proxy: endpoint, region, path-style access and the keys. */
  public Map<String, String> options() {
    Map<String, String> options = new HashMap<>();
    options.put(ENDPOINT, endpoint().toString());
    options.put(REGION, REGION_NAME);
    options.put(PATH_STYLE, "true");
    options.put(ACCESS_KEY_ID, ACCESS_KEY);
    options.put(SECRET_ACCESS_KEY, SECRET_KEY);
    return options;
  }

  /**
   * The S3 keys of the multipart uploads begun and neither completed nor aborted, read from the
   * backend itself rather than through S3.
   */
  public List<String> pendingUploads() {
    checkStarted();
    return blobStore.listMultipartUploads(BUCKET).stream().map(MultipartUpload::key).sorted().toList();
  }

  @Override
  public synchronized void close() {
    try {
      if (proxy != null) {
        proxy.stop();
      }
      if (blobStore != null) {
        blobStore.close();
      }
    } catch (Exception e) {
      throw new IllegalStateException("Cannot stop s3proxy: " + e.getMessage(), e);
    } finally {
      proxy = null;
      blobStore = null;
      deleteDirectory();
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    start();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    close();
  }

  private void checkStarted() {
    if (proxy == null) {
      throw new IllegalStateException("s3proxy is not started: register it with @RegisterExtension or call start()");
    }
  }

  private void deleteDirectory() {
    if (directory == null) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete the s3proxy directory " + directory, e);
    } finally {
      directory = null;
    }
  }
}
