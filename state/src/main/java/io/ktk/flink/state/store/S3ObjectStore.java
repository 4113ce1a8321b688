package io.ktk.flink.state.store;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * An {@link ObjectStore} over an S3 bucket prefix, {@code s3://bucket/prefix}; the key {@code
 * a/b.json} of {@code s3://data/cubes} is the S3 object {@code cubes/a/b.json} in bucket {@code
 * data}. Works with AWS and S3-compatible services (see {@link StoreOptions}).
 *
 * <p>{@link #putIfAbsent} is a PutObject with {@code If-None-Match: *}, which S3 evaluates
 * atomically: 412 Precondition Failed (or 409 ConditionalRequestConflict while a concurrent
 * conditional write is in flight) means another writer owns the key. {@link #create} buffers a part
 * in memory and switches to a multipart upload above the multipart threshold (see {@link
 * S3OutputStream}).
 *
 * <p>Requests time out and retry briefly (see {@link S3Settings}), so that an unreachable endpoint
 * fails within seconds; every failure is an {@link IOException} naming the operation, the key, the
 * store and the endpoint.
 */
public final class S3ObjectStore implements ObjectStore {
  private final String url;
  private final String bucket;
  /** The S3 key prefix of every object: empty or ending with {@code /}. */
  private final String root;
  private final S3Settings settings;
  private final String endpoint;
  private final AwsCredentialsProvider credentials;
  private final S3Client client;

  private S3ObjectStore(String url, S3Location location, S3Settings settings) {
    this.url = url;
    this.bucket = location.bucket();
    this.root = location.root();
    this.settings = settings;
    this.endpoint = settings.endpoint() == null ? "AWS" : settings.endpoint().toString();
    this.credentials = settings.credentialsProvider();
    try {
      this.client = settings.newClient(url, credentials);
    } catch (RuntimeException e) {
      closeCredentials();
      throw e;
    }
  }

  /** Opens {@code s3://bucket} or {@code s3://bucket/prefix} with the options of {@link StoreOptions}. */
  static S3ObjectStore open(String url, Map<String, String> options) {
    S3Location location = S3Location.parse(url);
    return new S3ObjectStore(url, location, StoreOptions.s3(url, options));
  }

  @Override
  public String url() {
    return url;
  }

  @Override
  public byte[] get(String key) throws IOException {
    String objectKey = objectKey(key);
    try {
      return client.getObjectAsBytes(r -> r.bucket(bucket).key(objectKey)).asByteArrayUnsafe();
    } catch (NoSuchKeyException e) {
      throw new NoSuchObjectException(url, key);
    } catch (SdkException e) {
      throw failure("read", key, e);
    }
  }

  @Override
  public byte[] getRange(String key, long offset, int length) throws IOException {
    String objectKey = objectKey(key);
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException(
          "Cannot read " + length + " bytes at offset " + offset + " of " + key + ": both must be >= 0");
    }
    if (length == 0) {
      // HTTP cannot ask for an empty range; still fail like a read would.
      long size = head(key).orElseThrow(() -> new NoSuchObjectException(url, key)).size();
      if (offset > size) {
        throw beyondEnd(key, offset, length, size);
      }
      return new byte[0];
    }
    String range = "bytes=" + offset + "-" + (offset + length - 1);
    ResponseBytes<GetObjectResponse> response;
    try {
      response = client.getObjectAsBytes(r -> r.bucket(bucket).key(objectKey).range(range));
    } catch (NoSuchKeyException e) {
      throw new NoSuchObjectException(url, key);
    } catch (S3Exception e) {
      if (e.statusCode() == 416) {
        throw beyondEnd(key, offset, length, head(key).map(ObjectInfo::size).orElse(-1L));
      }
      throw failure("read", key, e);
    } catch (SdkException e) {
      throw failure("read", key, e);
    }
    byte[] bytes = response.asByteArrayUnsafe();
    if (bytes.length != length) {
      String contentRange = response.response().contentRange();
      // "bytes 8-9/10": the size follows the slash
      long size = contentRange == null ? -1 : Long.parseLong(contentRange.substring(contentRange.indexOf('/') + 1));
      throw beyondEnd(key, offset, length, size);
    }
    return bytes;
  }

  private IOException beyondEnd(String key, long offset, int length, long size) {
    return new IOException("Cannot read bytes " + offset + ".." + (offset + length) + " of " + key + " in "
        + url + ": the object has " + (size < 0 ? "fewer" : String.valueOf(size)) + " bytes");
  }

  @Override
  public InputStream open(String key) throws IOException {
    String objectKey = objectKey(key);
    try {
      return new ResponseStream(client.getObject(r -> r.bucket(bucket).key(objectKey)), key);
    } catch (NoSuchKeyException e) {
      throw new NoSuchObjectException(url, key);
    } catch (SdkException e) {
      throw failure("read", key, e);
    }
  }

  @Override
  public void put(String key, byte[] data) throws IOException {
    String objectKey = objectKey(key);
    try {
      client.putObject(r -> r.bucket(bucket).key(objectKey), body(data, 0, data.length));
    } catch (SdkException e) {
      throw failure("write", key, e);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>When the SDK had to retry (an attempt failed without an answer, though S3 may have
   * executed it) and the retry finds the key taken, the object is read back: equal bytes mean the
   * earlier attempt was ours, so this returns {@code true}. Two callers writing identical bytes
   * could then both see {@code true}; the commit protocol writes a writer id into every entry.
   */
  @Override
  public boolean putIfAbsent(String key, byte[] data) throws IOException {
    String objectKey = objectKey(key);
    try {
      client.putObject(r -> r.bucket(bucket).key(objectKey).ifNoneMatch("*"), body(data, 0, data.length));
      return true;
    } catch (S3Exception e) {
      if (e.statusCode() != 412 && e.statusCode() != 409) {
        throw failure("create", key, e);
      }
      if (e.numAttempts() != null && e.numAttempts() > 1) {
        try {
          return Arrays.equals(get(key), data);
        } catch (NoSuchObjectException gone) {
          return false; // the winner's object was deleted since: still not ours
        }
      }
      return false;
    } catch (SdkException e) {
      throw failure("create", key, e);
    }
  }

  @Override
  public ObjectOutputStream create(String key) {
    return new S3OutputStream(this, key, objectKey(key), settings.multipartThreshold(), settings.partSize());
  }

  @Override
  public Optional<ObjectInfo> head(String key) throws IOException {
    String objectKey = objectKey(key);
    try {
      HeadObjectResponse response = client.headObject(r -> r.bucket(bucket).key(objectKey));
      return Optional.of(new ObjectInfo(key, response.contentLength(), response.lastModified()));
    } catch (NoSuchKeyException e) {
      return Optional.empty();
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return Optional.empty();
      }
      throw failure("stat", key, e);
    } catch (SdkException e) {
      throw failure("stat", key, e);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>The first page is read by this call; a later page that cannot be read makes the
   * iterator throw an {@link UncheckedIOException}.
   */
  @Override
  public Iterator<ObjectInfo> list(String prefix, String startAfter) throws IOException {
    requireNonNull(prefix, "prefix is null");
    return new S3Listing(this, prefix, startAfter, settings.listPageSize());
  }

  @Override
  public void delete(String key) throws IOException {
    String objectKey = objectKey(key);
    try {
      client.deleteObject(r -> r.bucket(bucket).key(objectKey));
    } catch (SdkException e) {
      throw failure("delete", key, e);
    }
  }

  @Override
  public void close() {
    client.close();
    closeCredentials();
  }

  private void closeCredentials() {
    if (credentials instanceof SdkAutoCloseable closeable) {
      closeable.close();
    }
  }

  @Override
  public String toString() {
    return "S3ObjectStore{" + url + ", endpoint=" + endpoint + "}";
  }

  S3Client client() {
    return client;
  }

  String bucket() {
    return bucket;
  }

  /** The key prefix of the store's objects in the bucket (empty, or ending with {@code /}). */
  String root() {
    return root;
  }

  String objectKey(String key) {
    ObjectKeys.checkKey(key);
    return root + key;
  }

  /** A body of {@code length} bytes of {@code data} from {@code offset}, not copied, re-readable by retries. */
  static RequestBody body(byte[] data, int offset, int length) {
    return RequestBody.fromContentProvider(
        () -> new ByteArrayInputStream(data, offset, length), length, "application/octet-stream");
  }

  /** "Cannot read k in s3://b/p (endpoint http://h:1): S3 answered 403 AccessDenied: ..." */
  IOException failure(String action, String key, SdkException e) {
    String reason = e.getMessage();
    String refusal = null;
    if (e instanceof S3Exception s3) {
      AwsErrorDetails details = s3.awsErrorDetails();
      boolean detailed = details != null && details.errorCode() != null;
      reason = "S3 answered " + s3.statusCode()
          + (detailed ? " " + details.errorCode() + ": " + details.errorMessage() : ": " + e.getMessage());
      refusal = refusal(s3.statusCode(), detailed ? details.errorCode() : null);
    }
    Integer attempts = e.numAttempts();
    String retried = attempts != null && attempts > 1 ? " (after " + attempts + " attempts)" : "";
    String message =
        "Cannot " + action + " " + key + " in " + url + " (endpoint " + endpoint + "): " + reason + retried;
    if (refusal != null) {
      return new StoreRefusedException(
          message + "; check the store's credentials, the permissions they grant and the bucket's name", refusal, e);
    }
    return new IOException(message, e);
  }

  /**
   * The error code of an answer that a retry cannot change, or null. 403 is always a refusal
   * (S3 answers a clock skew with 403 too, but the SDK corrects its clock and retries that one
   * itself before we see it); of the 404s only a missing bucket is, a missing key is no error of
   * the store's configuration.
   */
  private static String refusal(int status, String errorCode) {
    if (status == 401 || status == 403) {
      return errorCode == null ? "AccessDenied" : errorCode;
    }
    if (status == 404 && "NoSuchBucket".equals(errorCode)) {
      return errorCode;
    }
    return null;
  }

  /**
   * Reports read failures as {@link IOException}s naming the key, and aborts the connection when
   * closed before the end rather than draining the rest of a large object.
   */
  private final class ResponseStream extends FilterInputStream {
    private final ResponseInputStream<GetObjectResponse> response;
    private final String key;
    private boolean atEnd;

    ResponseStream(ResponseInputStream<GetObjectResponse> response, String key) {
      super(response);
      this.response = response;
      this.key = key;
    }

    @Override
    public int read() throws IOException {
      try {
        int b = super.read();
        atEnd |= b < 0;
        return b;
      } catch (SdkException e) {
        throw failure("read", key, e);
      }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        int n = super.read(b, off, len);
        atEnd |= n < 0;
        return n;
      } catch (SdkException e) {
        throw failure("read", key, e);
      }
    }

    @Override
    public void close() throws IOException {
      if (!atEnd) {
        response.abort();
      }
      response.close();
    }
  }
}
