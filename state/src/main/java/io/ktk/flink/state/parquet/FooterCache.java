package io.ktk.flink.state.parquet;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parsed Parquet footers by file name and size, so that a reader that opens the same files again
 * (a continuous source re-planning a cube: the enrichments' files for every new split) parses
 * each footer once. Data files are never overwritten in place (each has a unique name), and a
 * file of another size under the same name is another entry, so an entry cannot go stale. Holds
 * at most a given number of footers, the least recently used leaving first; thread-safe. One
 * cache serves the files of one store (the name is the store key).
 */
public final class FooterCache {
  /** Enough for the files of a cube of a few thousand files per dataset. */
  public static final int DEFAULT_ENTRIES = 4096;

  private final Map<String, ParquetChunks.Footer> footers;
  private long hits;
  private long misses;

  public FooterCache(int maxEntries) {
    if (maxEntries < 1) {
      throw new IllegalArgumentException("maxEntries must be at least 1: " + maxEntries);
    }
    footers = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, ParquetChunks.Footer> eldest) {
        return size() > maxEntries;
      }
    };
  }

  public FooterCache() {
    this(DEFAULT_ENTRIES);
  }

  synchronized ParquetChunks.Footer get(String name, long length) {
    ParquetChunks.Footer footer = footers.get(name + "@" + length);
    if (footer == null) {
      misses++;
    } else {
      hits++;
    }
    return footer;
  }

  synchronized void put(String name, long length, ParquetChunks.Footer footer) {
    footers.put(name + "@" + length, footer);
  }

  /** How many opens found their footer here. */
  public synchronized long hits() {
    return hits;
  }

  /** How many opens read and parsed their footer. */
  public synchronized long misses() {
    return misses;
  }

  public synchronized int size() {
    return footers.size();
  }
}
