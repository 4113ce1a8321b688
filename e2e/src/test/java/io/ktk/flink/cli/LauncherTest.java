package io.ktk.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.testing.Python;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./ktk} script at the repository root, run as a process. It is given this test's class
 * path through {@code KTK_CLASSPATH}, so that it runs the classes just compiled instead of building
 * the jar from within a build.
 */
class LauncherTest {
  @TempDir Path dir;

  private record Result(int exitCode, String out, String err) {}

  private Result launch(String... args) throws IOException, InterruptedException {
    return launch(System.getProperty("java.class.path"), Map.of(), args);
  }

  private Result launch(String classpath, Map<String, String> environment, String... args)
      throws IOException, InterruptedException {
    Path root = Python.repoRoot();
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    List<String> command = new java.util.ArrayList<>(List.of(root.resolve("ktk").toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
        .redirectOutput(out.toFile()).redirectError(err.toFile());
    builder.environment().put("KTK_CLASSPATH", classpath);
    builder.environment().putAll(environment);
    Process process = builder.start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("./ktk finished").isTrue();
    return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  /**
   * The class-data archive of a read-only command: written by its first run, mapped by the next,
   * and harmless when damaged or when it cannot be written. The archive needs a class path of jars
   * only, so the compiled classes of this module are put into jars first.
   */
  @Test
  void aClassDataArchiveIsWrittenOnceThenUsedAndNeverHarmsACommand() throws Exception {
    List<String> entries = new java.util.ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      Path path = Path.of(entry);
      if (Files.isDirectory(path)) {
        Path jar = dir.resolve("classes-" + entries.size() + ".jar");
        jarOf(path, jar);
        entries.add(jar.toString());
      } else if (Files.isRegularFile(path)) {
        entries.add(entry);
      }
    }
    String classpath = String.join(java.io.File.pathSeparator, entries);
    Path cds = dir.resolve("cds");
    Path classLog = dir.resolve("classes.log");
    Map<String, String> environment = Map.of("KTK_CDS_DIR", cds.toString(),
        "KTK_JAVA_OPTS", "-Xlog:class+load=info:file=" + classLog);

    Result first = launch(classpath, environment, "query", "--help");
    assertThat(first.exitCode()).as(first.err()).isZero();
    assertThat(first.out()).startsWith("Usage: ktk query");
    List<Path> archives;
    try (var files = Files.list(cds)) {
      archives = files.filter(file -> file.toString().endsWith(".jsa")).toList();
    }
    assertThat(archives).as("the archive the first run wrote").hasSize(1);
    assertThat(Files.readString(cds.resolve(archives.get(0).getFileName() + ".size")).trim())
        .isEqualTo(Long.toString(Files.size(archives.get(0))));

    Result second = launch(classpath, environment, "query", "--help");
    assertThat(second.out()).isEqualTo(first.out());
    assertThat(Files.readString(classLog)).as("classes mapped from the archive")
        .contains("io.ktk.flink.cli.Ktk source: shared objects file (top)");

    // damaged in place (its size kept): the JVM refuses it silently and the command runs as before
    Path archive = archives.get(0);
    archive.toFile().setWritable(true);
    byte[] noise = new byte[(int) Files.size(archive)];
    new java.util.Random(7).nextBytes(noise);
    Files.write(archive, noise);
    Result damaged = launch(classpath, environment, "query", "--help");
    assertThat(damaged.exitCode()).as(damaged.err()).isZero();
    assertThat(damaged.out()).isEqualTo(first.out());
    assertThat(damaged.err()).isEmpty();

    // truncated: its size no longer matches, so it is not mapped but written again
    Files.write(archive, java.util.Arrays.copyOf(noise, 4096));
    Result truncated = launch(classpath, environment, "query", "--help");
    assertThat(truncated.exitCode()).as(truncated.err()).isZero();
    assertThat(truncated.out()).isEqualTo(first.out());
    assertThat(Files.size(archive)).as("written again").isGreaterThan(4096);

    Path notADirectory = dir.resolve("file");
    Files.writeString(notADirectory, "x");
    Result unwritable = launch(classpath, Map.of("KTK_CDS_DIR", notADirectory.resolve("cds").toString()),
        "query", "--help");
    assertThat(unwritable.exitCode()).as(unwritable.err()).isZero();
    assertThat(unwritable.out()).isEqualTo(first.out());
    assertThat(unwritable.err()).isEmpty();
  }

  private static void jarOf(Path classes, Path jar) throws IOException {
    try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar));
        var files = Files.walk(classes)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        out.putNextEntry(new java.util.jar.JarEntry(classes.relativize(file).toString().replace('\\', '/')));
        Files.copy(file, out);
        out.closeEntry();
      }
    }
  }

  @Test
  void helpExitsWithZero() throws Exception {
    Result result = launch("--help");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.out()).startsWith("Usage: ktk").contains("Commands:");
  }

  @Test
  void missingArgumentsExitWithTwo() throws Exception {
    Result result = launch("info");

    assertThat(result.exitCode()).isEqualTo(Ktk.USAGE);
    assertThat(result.err()).contains("Missing required option: '--store=URL'");
    assertThat(result.out()).isEmpty();
  }

  @Test
  void anErrorExitsWithOneAndItsMessageOnly() throws Exception {
    Result result = launch("stats", "--store", dir.toUri().toString(), "--dataset", "none");

    assertThat(result.exitCode()).isEqualTo(Ktk.ERROR);
    assertThat(result.err()).isEqualTo("Cannot read dataset 'none' in " + dir.toUri()
        + ": it has neither a commit log nor plateau metadata\n");
  }
}
