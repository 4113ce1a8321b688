package io.ktk.flink.sink.writer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Version 1 of {@link WriterState}: the writer id as a 4-byte big-endian length and its UTF-8
 * bytes. Another version fails with "Unrecognized version or corrupt state".
 */
@Internal
public final class WriterStateSerializer implements SimpleVersionedSerializer<WriterState> {
  public static final int VERSION = 1;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(WriterState state) throws IOException {
    byte[] id = state.writerId().getBytes(StandardCharsets.UTF_8);
    DataOutputSerializer out = new DataOutputSerializer(4 + id.length);
    out.writeInt(id.length);
    out.write(id);
    return out.getCopyOfBuffer();
  }

  @Override
  public WriterState deserialize(int version, byte[] serialized) throws IOException {
    if (version != VERSION) {
      throw new IOException("Unrecognized version or corrupt state: version " + version + " of a writer state; "
          + "this sink reads version " + VERSION);
    }
    DataInputDeserializer in = new DataInputDeserializer(serialized);
    int length = in.readInt();
    if (length < 0 || length != in.available()) {
      throw new IOException("Unrecognized version or corrupt state: a writer id of " + length + " bytes in "
          + serialized.length + " bytes");
    }
    byte[] id = new byte[length];
    in.readFully(id);
    return new WriterState(new String(id, StandardCharsets.UTF_8));
  }
}
