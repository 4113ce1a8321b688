package io.ktk.flink.ingest;

import io.ktk.flink.ingest.source.InputRecord;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.common.functions.MapFunction;

/**
 * A test hook (the hidden option {@code --inject-failures-at}): throws on the record starting on
 * each given line the first time this process sees it, so the job restarts from its last
 * checkpoint and reads that line again. What has failed is kept in a static set, since the
 * embedded cluster runs its attempts in this JVM.
 */
final class InjectedFailures implements MapFunction<InputRecord, InputRecord> {
  private static final long serialVersionUID = 1L;
  private static final Set<String> FAILED = ConcurrentHashMap.newKeySet();

  private final String run;
  private final Set<Long> lines;

  InjectedFailures(String run, Set<Long> lines) {
    this.run = run;
    this.lines = Set.copyOf(lines);
  }

  @Override
  public InputRecord map(InputRecord record) {
    if (lines.contains(record.line()) && FAILED.add(run + ":" + record.line())) {
      throw new IllegalStateException("Injected failure at line " + record.line() + " (test hook)");
    }
    return record;
  }
}
