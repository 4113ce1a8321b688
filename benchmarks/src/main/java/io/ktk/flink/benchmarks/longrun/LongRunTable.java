package io.ktk.flink.benchmarks.longrun;

import io.ktk.flink.benchmarks.FigureTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The figures of a long run, one column per mark, and the ratio of the last mark to the one at
 * 10,000 commits (the target with maintenance on: at most 2).
 */
final class LongRunTable {
  private record Figure(String name, String format, ToDoubleFunction<Mark> value) {}

  private static final List<Figure> FIGURES = List.of(
      new Figure("log version", "%,.0f", m -> m.version()),
      new Figure("commit p50 ms", "%.2f", Mark::commitP50),
      new Figure("commit p99 ms", "%.2f", Mark::commitP99),
      new Figure("cold open ms", "%.1f", Mark::coldOpen),
      new Figure("cold open: objects read", "%,.0f", m -> m.coldOpenReads()),
      new Figure("cold open: keys listed", "%,.0f", m -> m.coldOpenListed()),
      new Figure("listing the log directory ms", "%.1f", Mark::listLog),
      new Figure("publish p50 ms", "%.1f", Mark::publishP50),
      new Figure("publish p99 ms", "%.1f", Mark::publishP99),
      new Figure("metadata JSON KB", "%,.1f", m -> m.metadataJsonBytes() / 1024.0),
      new Figure("json.load ms", "%.1f", Mark::jsonLoad),
      new Figure("json.load peak RSS MB", "%.0f", Mark::jsonLoadRssMb),
      new Figure("log entries", "%,.0f", m -> m.logEntries()),
      new Figure("log snapshots", "%,.0f", m -> m.snapshots()),
      new Figure("newest snapshot MB", "%,.2f", m -> m.newestSnapshotBytes() / 1048576.0),
      new Figure("log MB", "%,.1f", m -> m.logBytes() / 1048576.0),
      new Figure("files (latest version)", "%,.0f", m -> m.files()),
      new Figure("partitions", "%,.0f", m -> m.partitions()),
      new Figure("files per partition", "%.1f", Mark::filesPerPartition),
      new Figure("files per partition, max", "%,.0f", m -> m.maxFilesPerPartition()),
      new Figure("index entries", "%,.0f", m -> m.indexEntries()),
      new Figure("data files stored", "%,.0f", m -> m.storedDataFiles()),
      new Figure("index files stored", "%,.0f", m -> m.storedIndexFiles()),
      new Figure("index files MB", "%,.1f", m -> m.storedIndexBytes() / 1048576.0),
      new Figure("live heap MB (process)", "%,.1f", Mark::liveHeapMb),
      new Figure("one state MB", "%,.1f", Mark::stateMb),
      new Figure("compaction p50 ms", "%.1f", Mark::compactionP50),
      new Figure("compaction p99 ms", "%.1f", Mark::compactionP99),
      new Figure("expiry ms (median)", "%.0f", Mark::expiryMs),
      new Figure("gc ms (median)", "%.0f", Mark::gcMs),
      new Figure("elapsed s", "%,.0f", Mark::wallSeconds),
      new Figure("CPU s", "%,.0f", Mark::cpuSeconds));

  private LongRunTable() {}

  static void print(List<Mark> marks, LongRunBenchmark.Settings settings) {
    List<String> header = new ArrayList<>();
    header.add("after commits");
    marks.forEach(m -> header.add(String.format(Locale.ROOT, "%,d", m.commits())));
    Mark tenK = marks.stream().filter(m -> m.commits() == 10_000).findFirst().orElse(null);
    Mark last = marks.get(marks.size() - 1);
    boolean ratio = tenK != null && last != tenK;
    if (ratio) {
      header.add(String.format(Locale.ROOT, "%,d / 10,000", last.commits()));
    }
    FigureTable table = new FigureTable(header.toArray(String[]::new));
    for (Figure figure : FIGURES) {
      List<Object> row = new ArrayList<>();
      row.add(figure.name());
      for (Mark mark : marks) {
        row.add(String.format(Locale.ROOT, figure.format(), figure.value().applyAsDouble(mark)));
      }
      if (ratio) {
        double base = figure.value().applyAsDouble(tenK);
        row.add(base == 0 ? "n/a" : String.format(Locale.ROOT, "%.2fx", figure.value().applyAsDouble(last) / base));
      }
      table.row(row.toArray());
    }
    table.print(System.out, String.format(Locale.ROOT, "Long run, maintenance %s (%s)",
        settings.maintenance() ? "on" : "off", describe(settings)));
  }

  private static String describe(LongRunBenchmark.Settings settings) {
    String publishing = settings.publishEvery() == 1 ? "published after every commit"
        : "published every " + settings.publishEvery() + " commits and after each of the last "
            + settings.publishWindow() + " before a mark";
    return publishing + (settings.maintenance() ? ", compaction every " + settings.compactEvery().toMinutes()
        + " min, expiry every " + settings.expiryEvery().toMinutes()
        + " min, gc every " + settings.gcEvery().toMinutes() + " min" : "");
  }
}
