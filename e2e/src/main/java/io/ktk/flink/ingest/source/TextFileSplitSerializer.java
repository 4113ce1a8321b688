package io.ktk.flink.ingest.source;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Version 1: the path as modified UTF-8 ({@code writeUTF}), then offset and line as big-endian
 * longs. E.g. {@code /in.jsonl} at offset 10, line 3: {@code 00 09 2f 69 6e 2e 6a 73 6f 6e 6c},
 * {@code 00 00 00 00 00 00 00 0a}, {@code 00 00 00 00 00 00 00 03}.
 */
public final class TextFileSplitSerializer implements SimpleVersionedSerializer<TextFileSplit> {
  static final int VERSION = 1;

  @Override
  public int getVersion() {
    return VERSION;
  }

  @Override
  public byte[] serialize(TextFileSplit split) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeUTF(split.path());
      out.writeLong(split.offset());
      out.writeLong(split.line());
    }
    return bytes.toByteArray();
  }

  @Override
  public TextFileSplit deserialize(int version, byte[] serialized) throws IOException {
    if (version != VERSION) {
      throw new IOException("Unrecognized version or corrupt state: text file split version " + version);
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
      return new TextFileSplit(in.readUTF(), in.readLong(), in.readLong());
    }
  }
}
