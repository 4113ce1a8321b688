package io.ktk.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.testing.Python;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
    Path root = Python.repoRoot();
    Path out = dir.resolve("out.txt");
    Path err = dir.resolve("err.txt");
    List<String> command = new java.util.ArrayList<>(List.of(root.resolve("ktk").toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
        .redirectOutput(out.toFile()).redirectError(err.toFile());
    builder.environment().put("KTK_CLASSPATH", System.getProperty("java.class.path"));
    Process process = builder.start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("./ktk finished").isTrue();
    return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
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
