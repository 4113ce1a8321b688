package io.ktk.flink.state.commit;

import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.metadata.IndexFileWriter;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.parquet.StoreOutputFile;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The index files of a dataset's plateau view, kept between publications of the dataset: per
 * column the file last published (a column whose index did not change since keeps it) and the
 * {@link IndexFileWriter} that wrote it (the next file reuses its pages of unchanged values).
 *
 * <p>The files of a publication are written on a thread of their own ({@link #start}) while the
 * publisher writes the metadata JSON, which must appear only after them since it names them
 * ({@link Pending#await}). The label sets are taken from the state on the caller's thread (a state
 * is owned by one thread); the other thread reads only them, and they never change.
 */
final class ViewIndexFiles {
  /** Threads that write index files; idle ones end, so none outlives the work for long. */
  private static final ExecutorService WRITERS = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 10, TimeUnit.SECONDS,
      new SynchronousQueue<>(), runnable -> {
        Thread thread = new Thread(runnable, "ktk-index-files");
        thread.setDaemon(true);
        return thread;
      });

  private record Published(long changedAt, String key) {}

  /** One index file to write: the column's values with their labels, under a new key. */
  private record Task(String column, long changedAt, String key, IndexFileWriter writer,
      Map<Object, Collection<String>> values) {}

  private final Clock clock;
  private final Map<String, Published> published = new HashMap<>();
  private Map<String, IndexFileWriter> writers = new HashMap<>();

  ViewIndexFiles(Clock clock) {
    this.clock = clock;
  }

  /** Forgets which files were published: the next publication writes every column's file. */
  void forgetPublished() {
    published.clear();
  }

  /**
   * Starts writing the index files of the columns of {@code state} whose index changed since the
   * last publication. Every call must be followed by {@link Pending#await} before the next.
   */
  Pending start(ObjectStore store, DatasetState state) {
    Map<String, String> keys = new TreeMap<>();
    List<Task> tasks = new ArrayList<>();
    for (String column : state.indexColumns()) {
      Published previous = published.get(column);
      long changedAt = state.indexChangedAt(column);
      if (previous != null && previous.changedAt() == changedAt) {
        keys.put(column, previous.key());
        continue;
      }
      String key = DatasetKeys.indexFileKey(state.uuid(), column, clock.instant());
      IndexFileWriter writer = writer(column, state.schema().findField(column).getType());
      tasks.add(new Task(column, changedAt, key, writer, typedValues(state, column)));
      keys.put(column, key);
    }
    if (tasks.isEmpty()) {
      return new Pending(keys, tasks, CompletableFuture.completedFuture(null));
    }
    CompletableFuture<Void> written = CompletableFuture.runAsync(() -> {
      for (Task task : tasks) {
        write(store, task);
      }
    }, WRITERS);
    return new Pending(keys, tasks, written);
  }

  /** The index files of one publication, being written. */
  final class Pending {
    private final Map<String, String> keys;
    private final List<Task> tasks;
    private final CompletableFuture<Void> written;

    private Pending(Map<String, String> keys, List<Task> tasks, CompletableFuture<Void> written) {
      this.keys = Collections.unmodifiableMap(keys);
      this.tasks = tasks;
      this.written = written;
    }

    /** Per index column, the key of the index file the view names. */
    Map<String, String> keys() {
      return keys;
    }

    /** Waits until the files are stored (then they count as published), or throws why they are not. */
    void await() throws IOException {
      try {
        written.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        // The writing goes on without us: the next publication takes other writers.
        writers = new HashMap<>();
        throw new InterruptedIOException("Interrupted while writing index files " + keys.values());
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof UncheckedIOException unchecked) {
          throw unchecked.getCause();
        }
        if (cause instanceof RuntimeException runtime) {
          throw runtime;
        }
        if (cause instanceof Error error) {
          throw error;
        }
        throw new IOException("Cannot write index files " + keys.values(), cause);
      }
      for (Task task : tasks) {
        published.put(task.column(), new Published(task.changedAt(), task.key()));
      }
    }

    /** Waits until the writing ends, whatever its outcome: the writers are free for the next publication. */
    void awaitQuietly() {
      try {
        await();
      } catch (IOException | RuntimeException e) {
        // the caller fails for another reason already
      }
    }
  }

  private static void write(ObjectStore store, Task task) {
    StoreOutputFile file = new StoreOutputFile(store, task.key());
    try {
      task.writer().write(task.values(), file);
    } catch (IOException e) {
      file.abort();
      throw new UncheckedIOException(e);
    } catch (RuntimeException | Error e) {
      file.abort();
      throw e;
    }
  }

  /** The writer of the index files of {@code column}: it reuses the pages of the values that did not change. */
  private IndexFileWriter writer(String column, ArrowType type) {
    IndexFileWriter writer = writers.get(column);
    if (writer == null || !writer.type().equals(type)) {
      writer = new IndexFileWriter(column, type, ParquetWriteOptions.defaults());
      writers.put(column, writer);
    }
    return writer;
  }

  /** An index with its values as the typed values an index file holds; the label sets are not copied. */
  private static Map<Object, Collection<String>> typedValues(DatasetState state, String column) {
    Map<Object, Collection<String>> values = new LinkedHashMap<>();
    state.forEachIndexValue(column, values::put);
    return values;
  }
}
