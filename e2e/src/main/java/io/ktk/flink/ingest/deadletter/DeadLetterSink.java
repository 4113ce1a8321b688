package io.ktk.flink.ingest.deadletter;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Writes dead letters exactly once into part files of a local directory, which {@link #collect}
 * appends to the dead-letter file when the job is done.
 *
 * <p>A writer appends the JSON lines it receives to {@code .inprogress-<uuid>}; before each
 * checkpoint barrier it closes that file and hands its name on as the committable. When the
 * checkpoint completes, the committer renames it to {@code part-<uuid>.jsonl}; a rename replayed
 * after a restore finds the part already there and does nothing. In-progress files of an attempt
 * that failed before its checkpoint completed are never committed: their records are replayed
 * from the checkpoint and written again, and {@link #collect} deletes the leftovers.
 */
public final class DeadLetterSink implements Sink<DeadLetter>, SupportsCommitter<String> {
  private static final long serialVersionUID = 1L;
  private static final String IN_PROGRESS = ".inprogress-";
  private static final String PART = "part-";
  /** The journal of {@link #collect} in the parts directory. */
  static final String JOURNAL = "collect.journal";

  private final String directory;

  /** @param directory where the part files go (created when missing) */
  public DeadLetterSink(Path directory) {
    this.directory = requireNonNull(directory, "directory is null").toAbsolutePath().toString();
  }

  @Override
  public SinkWriter<DeadLetter> createWriter(WriterInitContext context) throws IOException {
    Path dir = Path.of(directory);
    Files.createDirectories(dir);
    return new PartWriter(dir);
  }

  @Override
  public Committer<String> createCommitter(CommitterInitContext context) {
    return new PartCommitter(Path.of(directory));
  }

  @Override
  public SimpleVersionedSerializer<String> getCommittableSerializer() {
    return new NameSerializer();
  }

  /**
   * Appends the committed parts of {@code directory} to {@code file} (created when missing) and
   * deletes them; returns how many dead letters were appended. The directory keeps the journal
   * until {@link #cleanUp}, so that a repeated call returns the same count.
   *
   * <p>Exactly once, even when a previous call was interrupted: before appending, the file's
   * length is written down in {@value #JOURNAL} in the directory; after appending (and syncing),
   * the journal records that the parts are in, with their count, and only then are the parts
   * deleted. A call that finds a journal of an unfinished append cuts the file back to the length
   * it had and appends again; one that finds a finished append only deletes what is left.
   */
  public static long collect(Path directory, Path file) throws IOException {
    if (!Files.isDirectory(directory)) {
      return 0;
    }
    Path journal = directory.resolve(JOURNAL);
    Journal state = Journal.read(journal);
    if (state == null) {
      state = new Journal(Files.exists(file) ? Files.size(file) : 0, -1);
      state.write(journal);
    }
    long count = state.appended();
    if (count < 0) {
      count = append(directory, file, state.lengthBefore());
      new Journal(state.lengthBefore(), count).write(journal);
    }
    try (Stream<Path> listed = Files.list(directory)) {
      for (Path entry : listed.toList()) {
        if (!entry.equals(journal)) {
          Files.delete(entry);
        }
      }
    }
    return count;
  }

  /** Deletes what {@link #collect} left in {@code directory}, and the directory. */
  public static void cleanUp(Path directory) throws IOException {
    if (Files.isDirectory(directory)) {
      try (Stream<Path> listed = Files.list(directory)) {
        for (Path entry : listed.toList()) {
          Files.delete(entry);
        }
      }
      Files.delete(directory);
    }
  }

  /** Appends the parts to {@code file}, first cut back to {@code lengthBefore}; returns the lines appended. */
  private static long append(Path directory, Path file, long lengthBefore) throws IOException {
    List<Path> parts;
    try (Stream<Path> listed = Files.list(directory)) {
      parts = listed.filter(part -> part.getFileName().toString().startsWith(PART)).sorted().toList();
    }
    long count = 0;
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      if (channel.size() > lengthBefore) {
        channel.truncate(lengthBefore);
      }
      channel.position(lengthBefore);
      Writer out = new BufferedWriter(Channels.newWriter(channel, UTF_8));
      for (Path part : parts) {
        for (String line : Files.readAllLines(part, UTF_8)) {
          out.write(line);
          out.write('\n');
          count++;
        }
      }
      out.flush();
      channel.force(true);
    }
    return count;
  }

  /**
   * What {@link #collect} wrote down: the dead-letter file's length before appending, and how
   * many lines were appended (-1 while appending). Format: {@code <lengthBefore> <appended>}.
   */
  private record Journal(long lengthBefore, long appended) {
    static Journal read(Path path) throws IOException {
      if (!Files.exists(path)) {
        return null;
      }
      String[] fields = Files.readString(path, UTF_8).trim().split(" ");
      try {
        return new Journal(Long.parseLong(fields[0]), Long.parseLong(fields[1]));
      } catch (RuntimeException e) {
        throw new IOException("Cannot collect dead letters: " + path + " is not a journal of a collection ("
            + e.getMessage() + "); look at the parts in " + path.getParent() + " and remove it", e);
      }
    }

    void write(Path path) throws IOException {
      Path temp = path.resolveSibling(path.getFileName() + ".tmp");
      Files.writeString(temp, lengthBefore + " " + appended + "\n", UTF_8);
      Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static final class PartWriter implements CommittingSinkWriter<DeadLetter, String> {
    private final Path directory;
    private String name;
    private Writer out;

    PartWriter(Path directory) {
      this.directory = directory;
    }

    @Override
    public void write(DeadLetter letter, Context context) throws IOException {
      if (out == null) {
        name = IN_PROGRESS + UUID.randomUUID();
        out = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(directory.resolve(name)), UTF_8));
      }
      out.write(letter.toJson());
      out.write('\n');
    }

    @Override
    public void flush(boolean endOfInput) throws IOException {
      if (out != null) {
        out.flush();
      }
    }

    @Override
    public Collection<String> prepareCommit() throws IOException {
      if (out == null) {
        return List.of();
      }
      out.close();
      out = null;
      return List.of(name);
    }

    @Override
    public void close() throws IOException {
      if (out != null) {
        out.close();
      }
    }
  }

  private static final class PartCommitter implements Committer<String> {
    private final Path directory;

    PartCommitter(Path directory) {
      this.directory = directory;
    }

    @Override
    public void commit(Collection<CommitRequest<String>> requests) throws IOException {
      for (CommitRequest<String> request : requests) {
        String name = request.getCommittable();
        Path source = directory.resolve(name);
        Path target = directory.resolve(PART + name.substring(IN_PROGRESS.length()) + ".jsonl");
        if (Files.exists(source)) {
          Files.move(source, target, StandardCopyOption.ATOMIC_MOVE);
        } else if (!Files.exists(target)) {
          throw new IOException("Cannot commit dead letters " + source + ": neither it nor " + target + " exists");
        }
      }
    }

    @Override
    public void close() {}
  }

  /** Version 1: the in-progress file's name in UTF-8. */
  private static final class NameSerializer implements SimpleVersionedSerializer<String> {
    @Override
    public int getVersion() {
      return 1;
    }

    @Override
    public byte[] serialize(String name) {
      return name.getBytes(UTF_8);
    }

    @Override
    public String deserialize(int version, byte[] serialized) throws IOException {
      if (version != 1) {
        throw new IOException("Unrecognized version or corrupt state: dead-letter committable version " + version);
      }
      return new String(serialized, UTF_8);
    }
  }
}
