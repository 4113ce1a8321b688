package io.ktk.flink.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * A user's job jar as the Flink documentation has users build one: the job's classes with the
 * connector jar's contents inside (a "fat" jar), so that the cluster needs nothing else.
 */
final class JobJars {
  private JobJars() {}

  /** Writes {@code target}: the connector's entries, then the classes of {@code job}'s package directory. */
  static Path withConnector(Path connector, Path target, Class<?> job) throws IOException, URISyntaxException {
    Path classes = Path.of(job.getProtectionDomain().getCodeSource().getLocation().toURI());
    String packageDir = job.getPackageName().replace('.', '/');
    Set<String> written = new HashSet<>();
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(target));
        JarFile jar = new JarFile(connector.toFile())) {
      Enumeration<JarEntry> entries = jar.entries();
      while (entries.hasMoreElements()) {
        JarEntry entry = entries.nextElement();
        if (written.add(entry.getName())) {
          out.putNextEntry(new JarEntry(entry.getName()));
          try (InputStream in = jar.getInputStream(entry)) {
            in.transferTo(out);
          }
          out.closeEntry();
        }
      }
      try (Stream<Path> files = Files.list(classes.resolve(packageDir))) {
        for (Path file : files.filter(f -> f.getFileName().toString().startsWith(job.getSimpleName())).toList()) {
          out.putNextEntry(new JarEntry(packageDir + "/" + file.getFileName()));
          out.write(Files.readAllBytes(file));
          out.closeEntry();
        }
      }
    }
    return target;
  }
}
