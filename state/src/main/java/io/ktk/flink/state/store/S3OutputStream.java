package io.ktk.flink.state.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * Streams an object of unknown size to S3, holding at most the larger of the multipart threshold
 * and the part size in memory.
 *
 * <p>Bytes collect in a buffer. While the object is no larger than the multipart threshold
 * nothing is sent, and {@link #close()} writes it with one PutObject. Once the object outgrows the
 * threshold, a multipart upload starts, every full part is uploaded as the buffer fills, and
 * {@link #close()} uploads the rest and completes the upload, which is when the object appears.
 * {@link #abort()}, or any failure, aborts the multipart upload so that neither the object nor
 * its parts remain. For example, with a threshold of 16 MiB and parts of 8 MiB, a 10 MiB object is
 * one PutObject and a 20 MiB one is three parts (8 + 8 + 4 MiB).
 *
 * <p>Parts carry CRC32 checksums that S3 verifies; the upload declares the algorithm so that the
 * completion may list them. Not thread-safe, as output streams go.
 */
final class S3OutputStream extends ObjectStore.ObjectOutputStream {
  /** S3 numbers parts from 1 to 10,000. */
  private static final int MAX_PARTS = 10_000;
  private static final int INITIAL_BUFFER = 16 * 1024;

  private final S3ObjectStore store;
  private final String key;
  private final String objectKey;
  private final int threshold;
  private final int partSize;
  private final byte[] single = new byte[1];
  private byte[] buffer = new byte[INITIAL_BUFFER];
  private int count;
  private long position;
  private String uploadId;
  private final List<CompletedPart> parts = new ArrayList<>();
  private boolean done;
  private boolean failed;

  S3OutputStream(S3ObjectStore store, String key, String objectKey, int threshold, int partSize) {
    this.store = store;
    this.key = key;
    this.objectKey = objectKey;
    this.threshold = threshold;
    this.partSize = partSize;
  }

  @Override
  public void write(int b) throws IOException {
    single[0] = (byte) b;
    write(single, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    checkOpen();
    try {
      while (len > 0) {
        if (uploadId == null) {
          if ((long) count + len <= threshold) {
            append(b, off, len);
            return;
          }
          start();
          uploadFullParts();
        }
        int n = Math.min(len, partSize - count);
        append(b, off, n);
        off += n;
        len -= n;
        if (count == partSize) {
          uploadFullParts();
        }
      }
    } catch (IOException | RuntimeException e) {
      fail(e);
      throw e;
    }
  }

  @Override
  public long position() {
    return position;
  }

  /** Nothing to do: S3 has no partial objects; bytes leave with the next full part. */
  @Override
  public void flush() {}

  @Override
  public void close() throws IOException {
    if (done) {
      if (failed) {
        throw new IOException("Cannot finish " + key + " in " + store.url() + ": an earlier write failed");
      }
      return;
    }
    try {
      if (uploadId == null) {
        store.client().putObject(r -> r.bucket(store.bucket()).key(objectKey), S3ObjectStore.body(buffer, 0, count));
      } else {
        if (count > 0) {
          uploadPart(0, count);
        }
        store.client().completeMultipartUpload(
            r -> r.bucket(store.bucket()).key(objectKey).uploadId(uploadId).multipartUpload(m -> m.parts(parts)));
      }
      done = true;
      buffer = null;
    } catch (SdkException e) {
      IOException failure = store.failure("write", key, e);
      fail(failure);
      throw failure;
    } catch (IOException | RuntimeException e) {
      fail(e);
      throw e;
    }
  }

  @Override
  public void abort() {
    if (done) {
      return;
    }
    done = true;
    buffer = null;
    if (uploadId != null) {
      String id = uploadId;
      try {
        abortUpload();
      } catch (SdkException e) {
        // The parts stay, invisible, until a bucket lifecycle rule removes incomplete uploads.
        throw new UncheckedIOException(store.failure("abort the multipart upload " + id + " of", key, e));
      }
    }
  }

  private void checkOpen() throws IOException {
    if (done) {
      throw new IOException("Cannot write " + key + " in " + store.url() + ": the stream is "
          + (failed ? "failed" : "closed or aborted"));
    }
  }

  private void append(byte[] b, int off, int len) {
    if (count + len > buffer.length) {
      int capacity = (int) Math.max(count + len, Math.min(2L * buffer.length, Math.max(threshold, partSize)));
      buffer = Arrays.copyOf(buffer, capacity);
    }
    System.arraycopy(b, off, buffer, count, len);
    count += len;
    position += len;
  }

  private void start() throws IOException {
    try {
      uploadId =
          store.client()
              .createMultipartUpload(
                  r -> r.bucket(store.bucket()).key(objectKey).checksumAlgorithm(ChecksumAlgorithm.CRC32))
              .uploadId();
    } catch (SdkException e) {
      throw store.failure("start a multipart upload of", key, e);
    }
  }

  /** Uploads every full part in the buffer and keeps the rest; just after {@link #start()} there may be several. */
  private void uploadFullParts() throws IOException {
    int offset = 0;
    while (count - offset >= partSize) {
      uploadPart(offset, partSize);
      offset += partSize;
    }
    System.arraycopy(buffer, offset, buffer, 0, count - offset);
    count -= offset;
  }

  private void uploadPart(int offset, int length) throws IOException {
    if (parts.size() == MAX_PARTS) {
      throw new IOException("Cannot write " + key + " in " + store.url() + ": it needs more than " + MAX_PARTS
          + " parts of " + partSize + " bytes; raise the option " + StoreOptions.PART_SIZE);
    }
    int partNumber = parts.size() + 1;
    try {
      UploadPartResponse response =
          store.client()
              .uploadPart(
                  r -> r.bucket(store.bucket()).key(objectKey).uploadId(uploadId).partNumber(partNumber)
                      .checksumAlgorithm(ChecksumAlgorithm.CRC32),
                  S3ObjectStore.body(buffer, offset, length));
      parts.add(
          CompletedPart.builder()
              .partNumber(partNumber)
              .eTag(response.eTag())
              .checksumCRC32(response.checksumCRC32())
              .build());
    } catch (SdkException e) {
      throw store.failure("upload part " + partNumber + " of", key, e);
    }
  }

  /** Marks the stream failed and removes what was uploaded; the first failure is the one reported. */
  private void fail(Exception cause) {
    done = true;
    failed = true;
    buffer = null;
    if (uploadId != null) {
      try {
        abortUpload();
      } catch (SdkException e) {
        cause.addSuppressed(e);
      }
    }
  }

  private void abortUpload() {
    String id = uploadId;
    uploadId = null;
    store.client().abortMultipartUpload(r -> r.bucket(store.bucket()).key(objectKey).uploadId(id));
  }
}
