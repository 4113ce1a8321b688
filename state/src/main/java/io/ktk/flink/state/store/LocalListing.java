package io.ktk.flink.state.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The objects of a {@link LocalObjectStore} under a prefix, in key order, found as the iterator
 * advances: a directory is read when the walk reaches it, and directories whose keys all fall
 * before {@code startAfter} or outside the prefix are never read. A caller that stops early (one
 * key per dataset directory, say) reads only what it looked at, not the whole tree.
 *
 * <p>Within a directory, entries sort by their name, a directory's with a trailing {@code /}: that
 * is the order of the keys below them, since no key continues a directory's name other than by
 * {@code /}.
 */
final class LocalListing implements Iterator<ObjectInfo> {
  private final String prefix;
  private final String startAfter;
  private final String tempPrefix;
  /** The directories being walked, innermost first, each as its remaining sorted entries. */
  private final Deque<Iterator<Entry>> open = new ArrayDeque<>();
  private ObjectInfo next;

  private record Entry(Path path, String key, boolean directory, BasicFileAttributes attributes) {}

  LocalListing(Path directory, String directoryKey, String prefix, String startAfter, String tempPrefix)
      throws IOException {
    this.prefix = prefix;
    this.startAfter = startAfter;
    this.tempPrefix = tempPrefix;
    open.push(entries(directory, directoryKey));
    advance();
  }

  @Override
  public boolean hasNext() {
    return next != null;
  }

  @Override
  public ObjectInfo next() {
    if (next == null) {
      throw new NoSuchElementException();
    }
    ObjectInfo current = next;
    try {
      advance();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return current;
  }

  private void advance() throws IOException {
    next = null;
    while (!open.isEmpty()) {
      Iterator<Entry> entries = open.peek();
      if (!entries.hasNext()) {
        open.pop();
        continue;
      }
      Entry entry = entries.next();
      if (entry.directory()) {
        String below = entry.key() + "/";
        if (mayHoldWanted(below)) {
          open.push(entries(entry.path(), below));
        }
      } else if (entry.key().startsWith(prefix)
          && (startAfter == null || ObjectKeys.compare(entry.key(), startAfter) > 0)) {
        BasicFileAttributes attributes = entry.attributes();
        next = new ObjectInfo(entry.key(), attributes.size(), attributes.lastModifiedTime().toInstant());
        return;
      }
    }
  }

  /** Whether keys starting with {@code below} can start with the prefix and follow startAfter. */
  private boolean mayHoldWanted(String below) {
    if (!below.startsWith(prefix) && !prefix.startsWith(below)) {
      return false;
    }
    // every key below is smaller than startAfter when startAfter leaves 'below' at a larger character
    return startAfter == null || startAfter.startsWith(below) || ObjectKeys.compare(below, startAfter) > 0;
  }

  /** The entries of a directory in key order (empty when it vanished meanwhile). */
  private Iterator<Entry> entries(Path directory, String keyPrefix) throws IOException {
    List<Entry> entries = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
      for (Path path : stream) {
        String name = path.getFileName().toString();
        if (name.startsWith(tempPrefix)) {
          continue;
        }
        BasicFileAttributes attributes;
        try {
          attributes = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
          continue; // deleted while listing
        }
        entries.add(new Entry(path, keyPrefix + name, attributes.isDirectory(), attributes));
      }
    } catch (NoSuchFileException e) {
      return List.<Entry>of().iterator(); // the directory vanished while listing: nothing in it
    }
    entries.sort((a, b) -> ObjectKeys.compare(sortKey(a), sortKey(b)));
    return entries.iterator();
  }

  private static String sortKey(Entry entry) {
    return entry.directory() ? entry.key() + "/" : entry.key();
  }
}
