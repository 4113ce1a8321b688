package io.ktk.flink.ingest;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestOptions;

/**
 * A Flink session cluster that {@code ktk ingest --jobmanager host:port} submits its job to (its
 * REST endpoint), instead of running an embedded one. The job's code travels as jars with the job,
 * as a user's would: the connector jar (sink and dataset format, its libraries relocated), the
 * tool's own classes (the file source and the parser), and Jackson, which the parser uses; nothing
 * of this project needs to be on the cluster's class path.
 *
 * <p>The input file and {@code --checkpoint-dir} are paths the cluster's TaskManagers and
 * JobManager must reach as well (the same machine, or a shared file system).
 *
 * @param host the JobManager's REST address
 * @param port its REST port
 * @param connectorJar the {@code ktk-flink-connector} jar
 */
public record RemoteCluster(String host, int port, Path connectorJar) {
  public RemoteCluster {
    requireNonNull(host, "host is null");
    requireNonNull(connectorJar, "connectorJar is null");
  }

  /** Parses {@code host:port}. */
  public static RemoteCluster parse(String address, Path connectorJar) {
    int colon = address.lastIndexOf(':');
    if (colon <= 0 || colon == address.length() - 1) {
      throw new IllegalArgumentException("'" + address + "' is not host:port");
    }
    int port;
    try {
      port = Integer.parseInt(address.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + address + "' has no port number after the colon");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("'" + address + "' has port " + port + ", not one of 1..65535");
    }
    return new RemoteCluster(address.substring(0, colon), port, connectorJar);
  }

  /** Sets the remote target and the jars to ship. */
  void configure(Configuration configuration) {
    configuration.set(DeploymentOptions.TARGET, "remote");
    configuration.set(RestOptions.ADDRESS, host);
    configuration.set(RestOptions.PORT, port);
    List<String> jars = new ArrayList<>();
    for (Path jar : jars()) {
      jars.add(jar.toUri().toString());
    }
    configuration.set(PipelineOptions.JARS, jars);
  }

  /** The connector jar, the tool's classes (as a jar) and Jackson's jars. */
  Set<Path> jars() {
    Set<Path> jars = new LinkedHashSet<>();
    jars.add(connectorJar.toAbsolutePath());
    jars.add(asJar(codeSource(IngestJob.class)));
    jars.add(codeSource(com.fasterxml.jackson.databind.ObjectMapper.class));
    jars.add(codeSource(com.fasterxml.jackson.core.JsonFactory.class));
    jars.add(codeSource(com.fasterxml.jackson.annotation.JsonProperty.class));
    return jars;
  }

  private static Path codeSource(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("Cannot locate the classes of " + type.getName(), e);
    }
  }

  /** A jar as it is, or a directory of classes (a development build) packed into a temporary jar. */
  private static Path asJar(Path location) {
    if (!Files.isDirectory(location)) {
      return location;
    }
    try {
      Path jar = Files.createTempFile("ktk-tool-", ".jar");
      jar.toFile().deleteOnExit();
      try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
        Files.walkFileTree(location, new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
            String name = location.relativize(file).toString().replace(java.io.File.separatorChar, '/');
            out.putNextEntry(new JarEntry(name));
            out.write(Files.readAllBytes(file));
            out.closeEntry();
            return FileVisitResult.CONTINUE;
          }
        });
      }
      return jar;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot pack the classes in " + location + " into a jar: " + e.getMessage(), e);
    }
  }
}
