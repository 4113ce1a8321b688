package io.ktk.flink.source.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The bytes of serializer versions kept under {@code src/test/resources/serializer/}: read back by
 * the serializer tests, and written once when a version is introduced ({@code
 * -Dktk.writeSerializerBytes=<dir>} writes those of the current versions to that directory).
 */
public final class SerializerBytes {
  private SerializerBytes() {}

  /** The kept bytes {@code serializer/<name>}. */
  public static byte[] resource(String name) throws IOException {
    try (InputStream in = SerializerBytes.class.getResourceAsStream("/serializer/" + name)) {
      assertThat(in).as("resource serializer/%s", name).isNotNull();
      return in.readAllBytes();
    }
  }

  /** Writes {@code files} (name to bytes) to the directory that {@code ktk.writeSerializerBytes} names, if it is set. */
  public static void writeIfAsked(Map<String, byte[]> files) throws IOException {
    String target = System.getProperty("ktk.writeSerializerBytes");
    if (target == null) {
      return;
    }
    Path dir = Path.of(target);
    Files.createDirectories(dir);
    for (Map.Entry<String, byte[]> file : files.entrySet()) {
      Files.write(dir.resolve(file.getKey()), file.getValue());
    }
  }
}
