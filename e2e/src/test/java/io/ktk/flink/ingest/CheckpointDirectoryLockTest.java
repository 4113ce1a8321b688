package io.ktk.flink.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Within one JVM; two processes are in {@code IngestConcurrencyTest}. */
class CheckpointDirectoryLockTest {
  @TempDir Path dir;

  @Test
  void aHeldDirectoryIsRefusedUntilItIsReleased() throws Exception {
    Path checkpoints = dir.resolve("new/checkpoints");
    long pid = ProcessHandle.current().pid();

    try (CheckpointDirectoryLock held = CheckpointDirectoryLock.acquire(checkpoints)) {
      assertThat(Files.readString(checkpoints.resolve(CheckpointDirectoryLock.FILE))).isEqualTo(pid + "\n");
      assertThatThrownBy(() -> CheckpointDirectoryLock.acquire(checkpoints))
          .isInstanceOf(CheckpointDirectoryLock.InUseException.class)
          .hasMessage("Cannot use checkpoint directory " + checkpoints + ": another ktk ingest (process " + pid
              + ") is running with it. Wait for it to end (run the command again then: a finished ingest is not "
              + "repeated), or give another --checkpoint-dir for another ingest");
      assertThatThrownBy(() -> CheckpointDirectoryLock.acquire(dir.resolve("new/../new/checkpoints")))
          .as("the same directory by another path").isInstanceOf(CheckpointDirectoryLock.InUseException.class);
    }

    try (CheckpointDirectoryLock again = CheckpointDirectoryLock.acquire(checkpoints)) {
      assertThat(Files.readString(checkpoints.resolve(CheckpointDirectoryLock.FILE))).isEqualTo(pid + "\n");
    }
  }
}
