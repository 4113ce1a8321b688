package io.ktk.flink.ingest;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.ingest.deadletter.DeadLetter;
import io.ktk.flink.ingest.deadletter.DeadLetterSink;
import io.ktk.flink.ingest.source.InputRecord;
import io.ktk.flink.ingest.source.TextFileSource;
import io.ktk.flink.ingest.source.TextFileSplit;
import io.ktk.flink.sink.RejectedRecord;
import io.ktk.flink.sink.config.ValidationPolicy;
import io.ktk.flink.state.KtkException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * The ingest job on an embedded Flink (a mini cluster in this JVM), streaming, exactly once:
 *
 * <pre>
 * input file ──► parse (parallelism n) ──► validation ──► Kartothek sink (writers, aggregator, committer)
 * (parallelism 1,     │                        │
 *  offset in state)   └──── dead letters ◄─────┘ ──► dead-letter part files (committed per checkpoint)
 * </pre>
 *
 * <p>A changelog ({@code --format debezium-json}, {@code canal-json}) is parsed at parallelism 1,
 * so that the changes of a key reach the sink in the input's order.
 *
 * <p>The source checkpoints its byte offset, the sink commits one dataset version per checkpoint
 * and recognises replays, the dead letters are committed per checkpoint too: a restart (fixed
 * delay, {@value #RESTART_ATTEMPTS} attempts) or a resume from a retained checkpoint writes each
 * record once. Every operator has a fixed uid, so a checkpoint of one run restores into the next.
 */
public final class IngestJob {
  static final int RESTART_ATTEMPTS = 5;
  private static final Duration RESTART_DELAY = Duration.ofMillis(500);

  /**
   * What to run.
   *
   * @param input the file and where its first record starts (after a CSV header)
   * @param inputName the input as the user named it, for messages
   * @param checkpointDir where checkpoints are retained, or null to keep them in memory
   * @param restoreFrom a retained checkpoint to resume from, or null
   * @param deadLetterParts where committed dead letters go (policy DEAD_LETTER), or null
   * @param writerIdPrefix starts the sink's writer ids, to find the ingest's commits ({@link CommittedRows})
   * @param injectFailuresAt test hook: lines where the job fails once
   * @param cluster a Flink session cluster to submit the job to, or null for the embedded one
   */
  public record Settings(IngestTarget target, RecordParser parser, TextFileSplit input, String inputName,
      int parallelism, Duration checkpointInterval, Path checkpointDir, Path restoreFrom,
      ValidationPolicy policy, Path deadLetterParts, String writerIdPrefix, Set<Long> injectFailuresAt,
      RemoteCluster cluster) {
    public Settings {
      requireNonNull(target, "target is null");
      requireNonNull(parser, "parser is null");
      requireNonNull(input, "input is null");
      requireNonNull(inputName, "inputName is null");
      requireNonNull(checkpointInterval, "checkpointInterval is null");
      requireNonNull(policy, "policy is null");
      requireNonNull(writerIdPrefix, "writerIdPrefix is null");
      injectFailuresAt = Set.copyOf(injectFailuresAt);
      if (policy == ValidationPolicy.DEAD_LETTER && deadLetterParts == null) {
        throw new IllegalArgumentException("deadLetterParts is null with policy DEAD_LETTER");
      }
    }
  }

  private IngestJob() {}

  /**
   * Runs the job to its end; {@code whileRunning} is called about once a second meanwhile.
   *
   * @throws KtkException the project's exception that failed the job, or {@link IngestFailedException}
   */
  public static void run(Settings settings, Runnable whileRunning) throws Exception {
    // As in the demo: the cluster shuts Pekko down itself; Pekko's JVM hook would fail later.
    System.setProperty("pekko.coordinated-shutdown.run-by-jvm-shutdown-hook", "off");
    // getExecutionEnvironment would make a local environment, which forces the target "local"
    StreamExecutionEnvironment env = settings.cluster() != null ? new StreamExecutionEnvironment(configuration(settings))
        : StreamExecutionEnvironment.getExecutionEnvironment(configuration(settings));
    env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
    env.setParallelism(settings.parallelism());
    env.enableCheckpointing(settings.checkpointInterval().toMillis());
    build(env, settings);
    JobClient job = env.executeAsync("ktk ingest: " + settings.inputName() + " into " + settings.target().describe());
    try {
      while (true) {
        try {
          job.getJobExecutionResult().get(1, TimeUnit.SECONDS);
          return;
        } catch (TimeoutException stillRunning) {
          whileRunning.run();
        }
      }
    } catch (java.util.concurrent.ExecutionException e) {
      throw failure(e, settings);
    }
  }

  static Configuration configuration(Settings settings) {
    Configuration configuration = new Configuration();
    configuration.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    configuration.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, RESTART_ATTEMPTS);
    configuration.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, RESTART_DELAY);
    if (settings.checkpointDir() != null) {
      configuration.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
      configuration.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, settings.checkpointDir().toUri().toString());
      configuration.set(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
          ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
    }
    if (settings.restoreFrom() != null) {
      configuration.set(StateRecoveryOptions.SAVEPOINT_PATH, settings.restoreFrom().toUri().toString());
    }
    if (settings.cluster() != null) {
      settings.cluster().configure(configuration);
    }
    return configuration;
  }

  private static void build(StreamExecutionEnvironment env, Settings settings) {
    DataStream<InputRecord> records = env
        .fromSource(new TextFileSource(settings.input(), settings.parser().format().quotedLineBreaks()),
            WatermarkStrategy.noWatermarks(), "input " + settings.inputName())
        .uid("ktk-ingest-input")
        .setParallelism(1);
    if (!settings.injectFailuresAt().isEmpty()) {
      records = records.map(new InjectedFailures(UUID.randomUUID().toString(), settings.injectFailuresAt()))
          .name("injected failures (test hook)")
          .uid("ktk-ingest-injected-failures")
          .setParallelism(1);
    }
    RowType rowType = settings.parser().rowType();
    // A changelog's changes of one key must reach the sink in the order of the input (the last one
    // wins), so they are parsed in one subtask; other records are spread over the parsers.
    boolean changelog = settings.parser().format().isChangelog();
    SingleOutputStreamOperator<RowData> rows = (changelog ? records.forward() : records.rebalance())
        .process(new ParseFunction(settings.parser(), settings.inputName(), settings.policy()),
            InternalTypeInfo.of(rowType))
        .name("parse " + settings.parser().format().name().toLowerCase(java.util.Locale.ROOT))
        .uid("ktk-ingest-parse");
    if (changelog) {
      rows.setParallelism(1);
    }
    DataStream<RejectedRecord> rejected = settings.target().addTo(rows, settings.policy(), settings.writerIdPrefix(),
        "ktk-ingest-sink");
    if (settings.policy() == ValidationPolicy.DEAD_LETTER) {
      rows.getSideOutput(ParseFunction.REJECTED)
          .union(rejected.map(DeadLetter::of).name("sink rejections").uid("ktk-ingest-sink-rejections"))
          .sinkTo(new DeadLetterSink(settings.deadLetterParts()))
          .name("dead letters")
          .uid("ktk-ingest-dead-letters")
          .setParallelism(1);
    }
  }

  /** The project's exception behind a job failure, or one that names the job's own cause. */
  private static Exception failure(Throwable e, Settings settings) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof KtkException ktk) {
        return ktk;
      }
    }
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return new IngestFailedException("Cannot ingest " + settings.inputName() + " into " + settings.target().describe()
        + ": the job failed: " + root, e);
  }
}
