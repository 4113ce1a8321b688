package io.ktk.flink.sink;

import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.dataset.NoSuchDatasetException;
import io.ktk.flink.state.dataset.Partition;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.store.NoSuchObjectException;
import io.ktk.flink.state.store.ObjectStore;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A reader that reads the latest version of a dataset of {@link TestRows} again and again while
 * others append, compact and collect garbage, and checks each version it reads: every file it
 * lists can be read, holds the rows the log says, and no id appears twice (a rewrite seen half
 * done would show its rows twice, or lose them), and it holds every id an earlier version held
 * (appends and rewrites never remove a row). A file may be gone only once the version read has
 * expired (a reader slower than the retention).
 */
final class SampledReads implements Runnable {
  private static final int MAX_PROBLEMS = 20;

  private final ObjectStore store;
  private final String uuid;
  private final AtomicBoolean stop;
  private final List<String> problems = Collections.synchronizedList(new ArrayList<>());
  private BitSet previous = new BitSet();
  private long previousVersion = -1;
  private long reading = -1;
  private volatile int samples;
  private volatile long highestVersion = -1;

  SampledReads(ObjectStore store, String uuid, AtomicBoolean stop) {
    this.store = store;
    this.uuid = uuid;
    this.stop = stop;
  }

  @Override
  public void run() {
    while (!stop.get() && problems.size() < MAX_PROBLEMS) {
      try {
        sample();
      } catch (NoSuchDatasetException notYet) {
        Thread.onSpinWait(); // the writers have not created it yet
      } catch (NoSuchObjectException gone) {
        // A version's files outlive it by the retention: a reader slower than that may find one
        // gone, once the version it reads has expired (and only then).
        try {
          if (!expiredSince(reading)) {
            problems.add("version " + reading + " lacks a file while it is retained: " + gone);
          }
        } catch (Exception e) {
          problems.add("cannot tell whether version " + reading + " expired: " + e);
        }
      } catch (Exception e) {
        problems.add("reading version " + highestVersion + "+ failed: " + e);
      }
    }
  }

  private boolean expiredSince(long version) throws Exception {
    return new LogReader(store, uuid).latest().retainedFrom() > version;
  }

  private void sample() throws Exception {
    DatasetSnapshot snapshot = DatasetSnapshot.latest(store, uuid);
    reading = snapshot.version();
    BitSet ids = new BitSet();
    long rows = 0;
    for (Partition partition : snapshot.partitions()) {
      for (DataFile file : partition.files()) {
        try (ParquetRowsReader reader = ParquetRowsReader.open(store, file.key(uuid))) {
          for (List<Object> row : reader.readAll(List.of("id"))) {
            int id = Math.toIntExact((Long) row.get(0));
            if (ids.get(id)) {
              problems.add("version " + snapshot.version() + " holds id " + id + " twice (again in " + file.label() + ")");
            }
            ids.set(id);
            rows++;
          }
        }
      }
    }
    if (rows != snapshot.rows()) {
      problems.add("version " + snapshot.version() + " has " + rows + " rows in its files, its log says " + snapshot.rows());
    }
    BitSet lost = (BitSet) previous.clone();
    lost.andNot(ids);
    if (!lost.isEmpty()) {
      problems.add("version " + snapshot.version() + " lacks " + lost.cardinality() + " ids that version "
          + previousVersion + " held, the first " + lost.nextSetBit(0));
    }
    previous = ids;
    previousVersion = snapshot.version();
    highestVersion = Math.max(highestVersion, snapshot.version());
    samples++;
  }

  int samples() {
    return samples;
  }

  long highestVersion() {
    return highestVersion;
  }

  List<String> problems() {
    return List.copyOf(problems);
  }
}
