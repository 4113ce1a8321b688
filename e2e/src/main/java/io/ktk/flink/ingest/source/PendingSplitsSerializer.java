package io.ktk.flink.ingest.source;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The enumerator's state, the splits not yet assigned. Version 1: their count as a big-endian int,
 * then each as length (int) and the bytes of {@link TextFileSplitSerializer} version 1.
 */
public final class PendingSplitsSerializer implements SimpleVersionedSerializer<List<TextFileSplit>> {
  static final int VERSION = 1;
  private final TextFileSplitSerializer splits = new TextFileSplitSerializer();

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(List<TextFileSplit> pending) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(pending.size());
      for (TextFileSplit split : pending) {
        byte[] serialized = splits.serialize(split);
        out.writeInt(serialized.length);
        out.write(serialized);
      }
    }
    return bytes.toByteArray();
  }

  @Override
  public List<TextFileSplit> deserialize(int version, byte[] serialized) throws IOException {
    if (version != VERSION) {
      throw new IOException("Unrecognized version or corrupt state: pending text file splits version " + version);
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
      int count = in.readInt();
      List<TextFileSplit> pending = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        byte[] split = new byte[in.readInt()];
        in.readFully(split);
        pending.add(splits.deserialize(TextFileSplitSerializer.VERSION, split));
      }
      return pending;
    }
  }
}
