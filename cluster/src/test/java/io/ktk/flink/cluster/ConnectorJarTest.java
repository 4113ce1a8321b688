package io.ktk.flink.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/** What the shaded {@code ktk-flink-connector} jar holds, entry by entry. */
class ConnectorJarTest {
  /** JNI libraries whose native code is bound to their class names: they cannot be relocated. */
  private static final List<String> UNRELOCATED = List.of("org/xerial/snappy/", "com/github/luben/zstd/");

  private static List<String> entries() throws IOException {
    try (JarFile jar = new JarFile(Path.of(System.getProperty("ktk.connector.jar")).toFile())) {
      List<String> names = new ArrayList<>();
      for (JarEntry entry : Collections.list(jar.entries())) {
        names.add(entry.getName());
      }
      return names;
    }
  }

  @Test
  void holdsNoFlinkClasses() throws IOException {
    assertThat(entries()).noneMatch(name -> name.startsWith("org/apache/flink/"));
  }

  @Test
  void everyClassIsOursOrRelocatedUnderOurPackage() throws IOException {
    List<String> foreign = entries().stream()
        .filter(name -> name.endsWith(".class"))
        .filter(name -> !name.startsWith("io/ktk/flink/"))
        .filter(name -> UNRELOCATED.stream().noneMatch(name::startsWith))
        .toList();
    assertThat(foreign).isEmpty();
    assertThat(entries()).contains("io/ktk/flink/sink/KartothekSink.class", "io/ktk/flink/source/KartothekSource.class",
        "io/ktk/flink/source/catalog/KartothekCatalog.class",
        "io/ktk/flink/shaded/com/fasterxml/jackson/databind/ObjectMapper.class",
        "io/ktk/flink/shaded/software/amazon/awssdk/services/s3/S3Client.class");
  }

  @Test
  void registersTheSqlFactoriesAndTheCatalog() throws IOException {
    try (JarFile jar = new JarFile(Path.of(System.getProperty("ktk.connector.jar")).toFile());
        InputStream services = jar.getInputStream(jar.getEntry(
            "META-INF/services/org.apache.flink.table.factories.Factory"))) {
      assertThat(new String(services.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::trim)
          .filter(line -> !line.isEmpty() && !line.startsWith("#")).toList())
          .containsExactlyInAnyOrder("io.ktk.flink.sink.table.KartothekDynamicTableFactory",
              "io.ktk.flink.source.table.KartothekTableSourceFactory",
              "io.ktk.flink.source.catalog.KartothekCatalogFactory");
    }
  }
}
