package io.ktk.flink.state.store;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Collections;
import java.util.Iterator;
import java.util.Optional;
import java.util.UUID;

/**
 * An {@link ObjectStore} over a local directory. Objects are files below the root; a key's
 * {@code /} separators become directories.
 *
 * <p>Every write goes to a hidden temporary file in the target directory first and is then moved
 * into place atomically, so a reader never sees a partial object. {@link #putIfAbsent} publishes
 * the temporary file with a hard link, which the file system creates atomically and refuses when
 * the name exists.
 */
public final class LocalObjectStore implements ObjectStore {
  /** Temporary files carry this prefix; listings skip them. */
  static final String TEMP_PREFIX = ".ktk-tmp-";

  private final Path root;
  private final String url;

  public LocalObjectStore(Path root) {
    this.root = requireNonNull(root, "root is null").toAbsolutePath().normalize();
    this.url = this.root.toUri().toString();
  }

  public Path root() {
    return root;
  }

  @Override
  public String url() {
    return url;
  }

  @Override
  public byte[] get(String key) throws IOException {
    Path path = resolve(key);
    try {
      return Files.readAllBytes(path);
    } catch (FileSystemException e) {
      throw missingOrRethrow(path, key, e);
    }
  }

  @Override
  public byte[] getRange(String key, long offset, int length) throws IOException {
    Path path = resolve(key);
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException(
          "Cannot read " + length + " bytes at offset " + offset + " of " + key + ": both must be >= 0");
    }
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
      if (offset + length > channel.size()) {
        throw new IOException(
            "Cannot read bytes " + offset + ".." + (offset + length) + " of " + key + " in " + url
                + ": the object has " + channel.size() + " bytes");
      }
      ByteBuffer buffer = ByteBuffer.allocate(length);
      while (buffer.hasRemaining()) {
        if (channel.read(buffer, offset + buffer.position()) < 0) {
          throw new IOException("Cannot read " + key + " in " + url + ": it shrank while reading");
        }
      }
      return buffer.array();
    } catch (FileSystemException e) {
      throw missingOrRethrow(path, key, e);
    }
  }

  @Override
  public InputStream open(String key) throws IOException {
    Path path = resolve(key);
    try {
      return Files.newInputStream(path);
    } catch (FileSystemException e) {
      throw missingOrRethrow(path, key, e);
    }
  }

  @Override
  public void put(String key, byte[] data) throws IOException {
    Path target = resolve(key);
    Path temp = writeTemp(target, data);
    try {
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  @Override
  public boolean putIfAbsent(String key, byte[] data) throws IOException {
    Path target = resolve(key);
    if (Files.exists(target)) {
      return false;
    }
    Path temp = writeTemp(target, data);
    try {
      Files.createLink(target, temp);
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  @Override
  public ObjectOutputStream create(String key) throws IOException {
    Path target = resolve(key);
    if (!Files.isDirectory(target.getParent())) {
      // createDirectories on an existing directory fails a mkdir and builds an exception: a writer
      // creates many files in one directory
      Files.createDirectories(target.getParent());
    }
    Path temp = tempFileFor(target);
    return new LocalOutputStream(target, temp);
  }

  @Override
  public Optional<ObjectInfo> head(String key) throws IOException {
    Path path = resolve(key);
    try {
      BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
      if (!attributes.isRegularFile()) {
        return Optional.empty();
      }
      return Optional.of(
          new ObjectInfo(key, attributes.size(), attributes.lastModifiedTime().toInstant()));
    } catch (FileSystemException e) {
      if (isAbsent(path, e)) {
        return Optional.empty();
      }
      throw e;
    }
  }

  @Override
  public Iterator<ObjectInfo> list(String prefix, String startAfter) throws IOException {
    requireNonNull(prefix, "prefix is null");
    // Walk only the deepest directory the prefix names completely.
    int slash = prefix.lastIndexOf('/');
    String directoryKey = slash < 0 ? "" : prefix.substring(0, slash);
    Path directory = directoryKey.isEmpty() ? root : resolve(directoryKey);
    if (!Files.isDirectory(directory)) {
      return Collections.emptyIterator();
    }
    return new LocalListing(directory, directoryKey.isEmpty() ? "" : directoryKey + "/", prefix, startAfter,
        TEMP_PREFIX);
  }

  @Override
  public void delete(String key) throws IOException {
    Files.deleteIfExists(resolve(key));
  }

  @Override
  public void close() {}

  @Override
  public String toString() {
    return "LocalObjectStore{" + url + "}";
  }

  /** A missing file, or a key below a file ({@code a/b} where {@code a} is an object): absent either way. */
  private static boolean isAbsent(Path path, FileSystemException e) {
    return e instanceof NoSuchFileException || !Files.isDirectory(path.getParent());
  }

  private IOException missingOrRethrow(Path path, String key, FileSystemException e) {
    return isAbsent(path, e) ? new NoSuchObjectException(url, key) : e;
  }

  private Path resolve(String key) {
    ObjectKeys.checkKey(key);
    return root.resolve(key);
  }

  private static Path tempFileFor(Path target) {
    return target.resolveSibling(TEMP_PREFIX + target.getFileName() + "-" + UUID.randomUUID());
  }

  private static Path writeTemp(Path target, byte[] data) throws IOException {
    Files.createDirectories(target.getParent());
    Path temp = tempFileFor(target);
    Files.write(temp, data, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    return temp;
  }

  private static final class LocalOutputStream extends ObjectOutputStream {
    private final Path target;
    private final Path temp;
    private final OutputStream out;
    private long position;
    private boolean done;

    LocalOutputStream(Path target, Path temp) throws IOException {
      this.target = target;
      this.temp = temp;
      this.out =
          new java.io.BufferedOutputStream(
              Files.newOutputStream(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
              1 << 16);
    }

    @Override
    public void write(int b) throws IOException {
      checkOpen();
      out.write(b);
      position++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      checkOpen();
      out.write(b, off, len);
      position += len;
    }

    @Override
    public long position() {
      return position;
    }

    private void checkOpen() throws IOException {
      if (done) {
        throw new IOException("Cannot write " + target + ": the stream is closed or aborted");
      }
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      if (done) {
        return;
      }
      done = true;
      boolean moved = false;
      try {
        out.close();
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        moved = true;
      } finally {
        if (!moved) {
          Files.deleteIfExists(temp);
        }
      }
    }

    @Override
    public void abort() {
      if (done) {
        return;
      }
      done = true;
      try {
        out.close();
        Files.deleteIfExists(temp);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot abort the write of " + target, e);
      }
    }
  }
}
