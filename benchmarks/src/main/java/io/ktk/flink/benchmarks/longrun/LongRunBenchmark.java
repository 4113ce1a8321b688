package io.ktk.flink.benchmarks.longrun;

import io.ktk.flink.benchmarks.BenchFiles;
import io.ktk.flink.benchmarks.BenchOptions;
import io.ktk.flink.sink.maintenance.MaintenanceSettings;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.commit.PublishedViewCheck;
import io.ktk.flink.state.store.LocalObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;


import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A simulated year of 1-minute checkpoints of one streaming job into one dataset, with the real
 * commit log, publishing, compaction, expiry and garbage collection on a local directory, and a
 * simulated clock ({@link SimulatedClock}, {@link SimulatedTimeStore}). No Flink: the job's writers
 * are {@link Checkpoints} (tiny prewritten Parquet files stored under new labels), its committer a
 * {@link CommitLog}, its publisher a second {@link CommitLog} on a thread of its own publishing the
 * latest version after each commit ({@link BackgroundPublisher}, as the sink's publisher thread does
 * with {@code publish.min-interval} 0), its maintenance {@link Maintenance}, run between commits. At each mark (1k, 10k, 50k, 100k, 250k and 525,600 commits by default) it takes the figures of
 * {@link Mark}; at the end it prints them side by side.
 *
 * <p>Arguments: {@code --commits N} (525600), {@code --maintenance on|off} (on), {@code --marks
 * 1000,10000,...}, {@code --publish-every N} (1: after every commit; with more, publishing happens
 * every N commits and after each of the last {@code --publish-window} (100) commits before a mark),
 * {@code --compact-every 10} (the sink's {@code maintenance.interval}), {@code --expiry-every 60} and
 * {@code --gc-every 1440} (minutes), {@code --progress-days N} (30),
 * {@code --work DIR} (target/bench-data/long-run, emptied first), {@code --python PATH}. Run it with
 * {@code bench/long-run}; {@code --view-files N} measures only the publication of a view of N files
 * ({@link ViewAtScale}); {@code --probe true} takes the store's figures of a run stopped between
 * marks.
 */
public final class LongRunBenchmark {
  static final String DATASET = "long-run";
  private static final String WRITER_ID = "sim-writer";
  private static final Instant START = Instant.parse("2024-01-01T00:00:00Z");
  private static final long SEED = 20240101L;
  private static final int LATENCY_WINDOW = 1_000;

  private LongRunBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = BenchOptions.parse(args);
    Path work = Path.of(options.getOrDefault("work", "target/bench-data/long-run")).toAbsolutePath();
    String python = options.getOrDefault("python", ".venv/bin/python");
    if (options.containsKey("view-files")) {
      ViewAtScale.run(work, Integer.parseInt(options.get("view-files").replace("_", "")));
      return;
    }
    long commits = Long.parseLong(options.getOrDefault("commits", "525600").replace("_", ""));
    if (options.containsKey("probe")) {
      probe(work, python, commits);
      return;
    }
    boolean maintenance = !options.getOrDefault("maintenance", "on").equals("off");
    TreeSet<Long> marks = new TreeSet<>();
    for (String mark : options.getOrDefault("marks", "1000,10000,50000,100000,250000,525600").split(",")) {
      long m = Long.parseLong(mark.trim().replace("_", ""));
      if (m <= commits) {
        marks.add(m);
      }
    }
    marks.add(commits);
    Settings settings = new Settings(commits, maintenance, marks,
        Integer.parseInt(options.getOrDefault("publish-every", "1")),
        Integer.parseInt(options.getOrDefault("publish-window", "100")),
        Duration.ofMinutes(Long.parseLong(options.getOrDefault("compact-every",
            Long.toString(MaintenanceSettings.defaults().interval().toMinutes())))),
        Duration.ofMinutes(Long.parseLong(options.getOrDefault("expiry-every", "60"))),
        Duration.ofMinutes(Long.parseLong(options.getOrDefault("gc-every", "1440"))),
        Integer.parseInt(options.getOrDefault("progress-days", "30")));
    System.err.printf(Locale.ROOT, "long run: %,d commits, maintenance %s, %s, %d cores, load average %s, max heap %d MB%n",
        commits, maintenance ? "on" : "off", settings, Runtime.getRuntime().availableProcessors(),
        loadAverage(), Runtime.getRuntime().maxMemory() / 1048576);
    List<Mark> figures = run(work, python, settings);
    print(figures, settings);
    System.out.printf(Locale.ROOT, "load average at the end: %s%n", loadAverage());
  }

  /** What a run does. */
  record Settings(long commits, boolean maintenance, TreeSet<Long> marks, int publishEvery, int publishWindow,
      Duration compactEvery, Duration expiryEvery, Duration gcEvery, int progressDays) {}

  static List<Mark> run(Path work, String python, Settings settings) throws Exception {
    BenchFiles.deleteTree(work);
    Files.createDirectories(work.resolve("store"));
    SimulatedClock clock = new SimulatedClock(START);
    List<Mark> figures = new ArrayList<>();
    try (LocalObjectStore local = new LocalObjectStore(work.resolve("store"))) {
      SimulatedTimeStore store = new SimulatedTimeStore(local, clock);
      Checkpoints checkpoints = new Checkpoints(local, DATASET, WRITER_ID, new TinyFiles(SEED), SEED);
      // The writers write checkpoint n + 1 while checkpoint n is committed, as a job's writers do.
      ExecutorService writers = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "simulated-writers");
        thread.setDaemon(true);
        return thread;
      });
      Future<DatasetChange> nextChange = writers.submit(() -> checkpoints.write(1, day(1), time(1)));
      PublishedViewCheck viewCheck = new PublishedViewCheck(DATASET);
      CommitLog committer = CommitLog.open(store, DATASET, CommitLogOptions.DEFAULTS, viewCheck);
      Latencies publishTimes = new Latencies(LATENCY_WINDOW);
      BackgroundPublisher publisher = new BackgroundPublisher(store, DATASET, viewCheck, publishTimes);
      Maintenance maintenance = settings.maintenance()
          ? new Maintenance(store, DATASET, clock, settings.compactEvery(), settings.expiryEvery(), settings.gcEvery())
          : null;
      MarkProbe probe = new MarkProbe(local, DATASET, python, work);
      Latencies commitTimes = new Latencies(LATENCY_WINDOW);
      Latencies writeTimes = new Latencies(LATENCY_WINDOW);
      long start = System.nanoTime();
      for (long checkpoint = 1; checkpoint <= settings.commits(); checkpoint++) {
        clock.advance(Duration.ofMinutes(1));
        long t = System.nanoTime();
        DatasetChange change = nextChange.get();
        writeTimes.add(System.nanoTime() - t);
        if (checkpoint < settings.commits()) {
          long next = checkpoint + 1;
          nextChange = writers.submit(() -> checkpoints.write(next, day(next), time(next)));
        }
        t = System.nanoTime();
        committer.commit(change);
        commitTimes.add(System.nanoTime() - t);

        long nextMark = settings.marks().ceiling(checkpoint);
        boolean publish = checkpoint % settings.publishEvery() == 0 || nextMark - checkpoint < settings.publishWindow();
        if (publish) {
          publisher.signal(committer.state().version());
        }
        if (maintenance != null && maintenance.afterCommit()) {
          // Maintenance runs inline, between commits, so that what it finds due depends on the
          // simulated clock only, not on how fast this machine is.
          publisher.signalLatest();
        }
        if (checkpoint == nextMark) {
          committer.refresh();
          publisher.awaitPublished(committer.state().version());
          checkRows(committer, Checkpoints.rowsOf(checkpoint));
          Mark mark = probe.take(checkpoint, committer.state(), commitTimes, publishTimes, maintenance, start);
          figures.add(mark);
          System.err.println("mark " + mark);
          System.err.printf(Locale.ROOT, "time so far: waiting for the writers %.0f s, commits %.0f s, publishing %.0f s%n",
              writeTimes.totalSeconds(), commitTimes.totalSeconds(), publishTimes.totalSeconds());
          if (maintenance != null) {
            System.err.printf(Locale.ROOT, "maintenance so far: compaction %.0f s (p50 %.1f ms, p99 %.1f ms), "
                    + "%,d files (%,d bytes) into %,d (%,d bytes), %d rewrites not committed; expiry %.0f s, "
                    + "%,d objects deleted; gc %.0f s, %,d files deleted%n",
                maintenance.compaction.totalSeconds(), maintenance.compaction.quantileMillis(0.5),
                maintenance.compaction.quantileMillis(0.99), maintenance.filesCompacted, maintenance.bytesCompacted,
                maintenance.filesWritten, maintenance.bytesWritten, maintenance.rewritesNotCommitted,
                maintenance.expiry.totalSeconds(), maintenance.entriesDeleted, maintenance.gc.totalSeconds(),
                maintenance.filesCollected);
          }
        } else if (checkpoint % (1440L * settings.progressDays()) == 0) {
          System.err.printf(Locale.ROOT, "day %d: version %d, %,d files, commit p50 %.2f ms, publish p50 %.1f ms, "
                  + "heap used %d MB, %.0f s%n", checkpoint / 1440, committer.state().version(),
              committer.state().files().size(), commitTimes.quantileMillis(0.5), publishTimes.quantileMillis(0.5),
              (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) / 1048576,
              (System.nanoTime() - start) / 1e9);
        }
      }
      publisher.close();
      writers.shutdownNow();
    }
    return figures;
  }

  /** The simulated time at which checkpoint {@code checkpoint} (from 1) is taken: a minute per checkpoint. */
  private static Instant time(long checkpoint) {
    return START.plus(Duration.ofMinutes(checkpoint));
  }

  /** The day whose partitions checkpoint {@code checkpoint} writes: the day of the minute before it. */
  private static LocalDate day(long checkpoint) {
    return LocalDate.ofInstant(START.plus(Duration.ofMinutes(checkpoint - 1)), ZoneOffset.UTC);
  }

  /**
   * The figures a store holds of a run that was stopped between marks ({@code --probe true --work
   * DIR}; the commits are the writer's last checkpoint id): cold open, log, view and json.load, files, one
   * state. Commit and publish latencies and the committer's heap were the stopped process's; they
   * are NaN here.
   */
  private static void probe(Path work, String python, long commits) throws Exception {
    try (LocalObjectStore local = new LocalObjectStore(work.resolve("store"))) {
      MarkProbe probe = new MarkProbe(local, DATASET, python, work);
      DatasetState state = new LogReader(local, DATASET).latest();
      // The writer's checkpoint id is the number of commits the run made (versions include rewrites).
      Long committed = state.checkpoints().get(WRITER_ID);
      Mark mark = probe.take(committed != null ? committed : commits, state, new Latencies(1), new Latencies(1), null, System.nanoTime());
      System.out.println("mark " + mark);
    }
  }

  /** Compaction must keep every row: the latest version holds as many rows as the writers wrote. */
  private static void checkRows(CommitLog log, long written) {
    long rows = log.state().files().values().stream().mapToLong(DataFile::rows).sum();
    if (rows != written) {
      throw new IllegalStateException("the latest version (" + log.state().version() + ") holds " + rows
          + " rows, the writers wrote " + written);
    }
  }

  private static void print(List<Mark> figures, Settings settings) {
    LongRunTable.print(figures, settings);
  }

  static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0] + " " + parts[1] + " " + parts[2];
    } catch (IOException e) {
      return "unknown";
    }
  }
}
