package io.ktk.flink.state.testing;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs Python scripts with pyarrow, pandas and DuckDB: the independent readers that tests check
 * this project's files against.
 *
 * <p>The interpreter is {@code $KTK_PYTHON} when set, else {@code <repo>/.venv/bin/python}, which
 * is created on first use with {@code python3 -m venv} and {@code pip install} from the package
 * index configured on the machine. {@code .ci/run} creates the same venv up front.
 */
public final class Python {
  private static final List<String> PACKAGES = List.of("pyarrow", "pandas", "duckdb", "msgpack", "zstandard");
  private static Path interpreter;

  private Python() {}

  /** Runs {@code script} with the arguments; returns stdout, fails with stderr on a non-zero exit. */
  public static String run(String script, String... args) {
    try {
      Path scriptFile = Files.createTempFile("ktk-test-", ".py");
      try {
        Files.writeString(scriptFile, script);
        List<String> command = new ArrayList<>();
        command.add(interpreter().toString());
        command.add(scriptFile.toString());
        command.addAll(List.of(args));
        return exec(command, 300);
      } finally {
        Files.deleteIfExists(scriptFile);
      }
    } catch (IOException e) {
      throw new IllegalStateException("Cannot run a Python script: " + e.getMessage(), e);
    }
  }

  /** The Python interpreter, creating the venv if needed. */
  public static synchronized Path interpreter() {
    if (interpreter != null) {
      return interpreter;
    }
    String fromEnv = System.getenv("KTK_PYTHON");
    if (fromEnv != null && !fromEnv.isBlank()) {
      interpreter = Path.of(fromEnv);
      return interpreter;
    }
    Path venv = repoRoot().resolve(".venv");
    Path python = venv.resolve("bin/python");
    try {
      Files.createDirectories(repoRoot().resolve("target"));
      try (FileChannel lockFile =
              FileChannel.open(
                  repoRoot().resolve("target/.venv.lock"),
                  StandardOpenOption.CREATE,
                  StandardOpenOption.WRITE);
          FileLock lock = lockFile.lock()) {
        if (!Files.exists(venv.resolve(".ktk-ready"))) {
          exec(List.of("python3", "-m", "venv", venv.toString()), 300);
          List<String> pip = new ArrayList<>(List.of(python.toString(), "-m", "pip", "install", "-q", "--retries", "0"));
          pip.addAll(PACKAGES);
          exec(pip, 900);
          Files.writeString(venv.resolve(".ktk-ready"), String.join("\n", PACKAGES));
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("Cannot create the Python venv at " + venv + ": " + e.getMessage(), e);
    }
    interpreter = python;
    return interpreter;
  }

  /** The repository root: the Maven reactor directory. */
  public static Path repoRoot() {
    String root = System.getProperty("ktk.repo.root");
    if (root != null && !root.isBlank()) {
      return Path.of(root);
    }
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve(".ci/run"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("Cannot find the repository root from " + Path.of("").toAbsolutePath());
    }
    return dir;
  }

  private static String exec(List<String> command, long timeoutSeconds) throws IOException {
    Path out = Files.createTempFile("ktk-py-out-", ".txt");
    Path err = Files.createTempFile("ktk-py-err-", ".txt");
    try {
      Process process =
          new ProcessBuilder(command)
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("Timed out after " + timeoutSeconds + " s: " + command);
      }
      String stdout = Files.readString(out, StandardCharsets.UTF_8);
      if (process.exitValue() != 0) {
        throw new AssertionError(
            "Command failed with exit code " + process.exitValue() + ": " + command + "\nstdout:\n" + stdout
                + "\nstderr:\n" + Files.readString(err, StandardCharsets.UTF_8));
      }
      return stdout;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while running " + command, e);
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
