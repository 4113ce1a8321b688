package io.ktk.flink.ingest;

import static java.nio.charset.StandardCharsets.US_ASCII;

import io.ktk.flink.state.KtkException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An ingest's hold on its {@code --checkpoint-dir}: an operating-system lock on {@value #FILE} in
 * the directory, held until {@link #close()}, so that a second ingest started with the same
 * directory fails at once instead of running the same input a second time. The file holds the
 * holder's process id, for the message of the one that is refused.
 *
 * <p>The lock ({@link FileChannel#tryLock()}, {@code fcntl} on Linux) belongs to the process and
 * goes away with it, also when it is killed, so a crashed ingest never leaves the directory
 * locked. Locks of one JVM do not exclude each other, and closing any channel of the file would
 * release them, so the directories this JVM holds are also kept in a set, checked before the file
 * is opened. The file stays when the lock is released: deleting it could let two processes lock
 * two different files of the same name.
 */
public final class CheckpointDirectoryLock implements AutoCloseable {
  /** The lock file in the checkpoint directory. */
  public static final String FILE = "ingest.lock";
  private static final Set<Path> HELD_HERE = ConcurrentHashMap.newKeySet();

  private final Path directory;
  private final FileChannel channel;
  private final FileLock lock;

  private CheckpointDirectoryLock(Path directory, FileChannel channel, FileLock lock) {
    this.directory = directory;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Locks {@code directory} (created when missing).
   *
   * @throws InUseException when another ingest holds it
   */
  public static CheckpointDirectoryLock acquire(Path directory) throws IOException {
    Files.createDirectories(directory);
    Path key = directory.toRealPath();
    if (!HELD_HERE.add(key)) {
      throw new InUseException(directory, ProcessHandle.current().pid());
    }
    FileChannel channel = null;
    try {
      channel = FileChannel.open(directory.resolve(FILE), StandardOpenOption.CREATE, StandardOpenOption.READ,
          StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null; // held in this JVM by a channel opened elsewhere; the set above makes this unlikely
      }
      if (lock == null) {
        throw new InUseException(directory, holder(directory));
      }
      channel.truncate(0);
      channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(US_ASCII)), 0);
      channel.force(false);
      return new CheckpointDirectoryLock(key, channel, lock);
    } catch (IOException | RuntimeException e) {
      if (channel != null) {
        channel.close();
      }
      HELD_HERE.remove(key);
      throw e;
    }
  }

  /** The process id the holder wrote into the lock file, or -1 when it has not written it yet. */
  private static long holder(Path directory) {
    try {
      String text = Files.readString(directory.resolve(FILE), US_ASCII).strip();
      return text.matches("[0-9]{1,18}") ? Long.parseLong(text) : -1;
    } catch (IOException e) {
      return -1;
    }
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
      channel.close();
    } finally {
      HELD_HERE.remove(directory);
    }
  }

  /** Another ingest holds the checkpoint directory. */
  public static final class InUseException extends KtkException {
    private static final long serialVersionUID = 1L;

    InUseException(Path directory, long pid) {
      super("Cannot use checkpoint directory " + directory + ": another ktk ingest "
          + (pid >= 0 ? "(process " + pid + ") " : "") + "is running with it. Wait for it to end (run the command "
          + "again then: a finished ingest is not repeated), or give another --checkpoint-dir for another ingest");
    }
  }
}
