package io.ktk.flink.state.metadata;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.CorruptDatasetException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.util.Base64;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The {@code ARROW:schema} entry of a Parquet footer's key/value metadata, as pyarrow writes and
 * reads it: the Arrow schema (fields and custom metadata) as an encapsulated IPC message, base64
 * encoded (standard alphabet, with padding).
 *
 * <pre>
 * ff ff ff ff            continuation marker
 * 30 06 00 00            length of the flatbuffer, padded to 8 bytes (here 0x630)
 * 10 00 00 00 ...        flatbuffer Message { header: Schema { fields, custom_metadata } }
 * 00 ...                 padding to a multiple of 8
 * </pre>
 *
 * <p>It is what lets pyarrow (and plateau) read back types that Parquet cannot express alone:
 * {@code large_string}, time zones other than UTC, list element names, nullability of nested
 * fields, {@code int64} versus a timestamp coerced to microseconds.
 */
public final class ArrowSchemaMetadata {
  /** The key of the footer entry. */
  public static final String KEY = "ARROW:schema";

  private ArrowSchemaMetadata() {}

  /** The entry's value for {@code schema}, including its custom metadata (e.g. {@code pandas}). */
  public static String encode(Schema schema) {
    requireNonNull(schema, "schema is null");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      MessageSerializer.serialize(new WriteChannel(Channels.newChannel(bytes)), schema);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot serialize an Arrow schema in memory", e);
    }
    return Base64.getEncoder().encodeToString(bytes.toByteArray());
  }

  /**
   * The schema of an entry's value. Throws {@link CorruptDatasetException} naming {@code source}
   * (the file the entry came from) when the value is not base64 or not an Arrow schema message.
   * Messages without the continuation marker (written by pyarrow before 0.15) are read too.
   */
  public static Schema decode(String value, String source) {
    requireNonNull(value, "value is null");
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(value.trim());
    } catch (IllegalArgumentException e) {
      throw corrupt(source, "it is not base64: " + e.getMessage(), e);
    }
    checkFraming(bytes, source);
    try {
      ReadChannel channel = new ReadChannel(Channels.newChannel(new ByteArrayInputStream(bytes)));
      Schema schema = MessageSerializer.deserializeSchema(channel);
      if (schema == null) {
        throw corrupt(source, "it holds no message", null);
      }
      return schema;
    } catch (IOException | RuntimeException e) {
      if (e instanceof CorruptDatasetException) {
        throw (CorruptDatasetException) e;
      }
      throw corrupt(source, "it is not an Arrow schema message: " + e, e);
    }
  }

  /**
   * Checks the message's length prefix ({@code [0xFFFFFFFF] <int32 LE length> <flatbuffer>})
   * against the bytes there are, before Arrow allocates a buffer of whatever length garbage claims.
   */
  private static void checkFraming(byte[] bytes, String source) {
    ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int lengthAt = bytes.length >= 4 && buffer.getInt(0) == -1 ? 4 : 0;
    if (bytes.length < lengthAt + 4) {
      throw corrupt(source, "it has " + bytes.length + " bytes, too few for an Arrow message", null);
    }
    long length = buffer.getInt(lengthAt);
    long following = bytes.length - lengthAt - 4L;
    if (length < 0 || length > following) {
      throw corrupt(source, "its message claims " + length + " bytes of metadata, but " + following
          + " bytes follow (not an Arrow schema message, or truncated)", null);
    }
  }

  private static CorruptDatasetException corrupt(String source, String reason, Throwable cause) {
    return new CorruptDatasetException("Cannot read the " + KEY + " metadata of " + source + ": " + reason, cause);
  }
}
