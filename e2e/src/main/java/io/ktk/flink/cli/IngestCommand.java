package io.ktk.flink.cli;

import io.ktk.flink.ingest.IngestFormat;
import io.ktk.flink.ingest.IngestJob;
import io.ktk.flink.ingest.IngestManifest;
import io.ktk.flink.ingest.IngestTarget;
import io.ktk.flink.ingest.InputFile;
import io.ktk.flink.ingest.InvalidRecordException;
import io.ktk.flink.ingest.RecordParser;
import io.ktk.flink.ingest.RemoteCluster;
import io.ktk.flink.ingest.deadletter.DeadLetterSink;
import io.ktk.flink.sink.config.ValidationPolicy;
import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.state.KtkException;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.commit.CubeCommitLog;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.metadata.CubeNames;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.table.types.logical.RowType;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code ktk ingest}: streams the records of a file (or stdin) through the Kartothek sink on an
 * embedded Flink into a dataset, exactly once, and resumes after a crash from the checkpoints
 * retained in {@code --checkpoint-dir}. The job itself is {@link IngestJob}; this class checks the
 * command line, prepares input and checkpoint directory, and prints the summary.
 */
@Command(
    name = "ingest",
    sortOptions = false,
    description = {
      "Streams records from a file or stdin through the Kartothek sink on an embedded Flink into a dataset, "
          + "exactly once: each checkpoint commits one version.",
      "With --checkpoint-dir, checkpoints are retained there, and the same command started again after a crash "
          + "resumes from the latest one instead of starting over (stdin is spooled into that directory first, "
          + "so a resumed run does not read stdin again). A directory of an ingest that finished is refused, and so "
          + "is one that another ingest is running with (it is locked)."
    },
    footer = {
      "",
      "--schema takes Flink SQL types: 'id BIGINT NOT NULL, p STRING, amount DECIMAL(10, 2), day DATE, "
          + "ts TIMESTAMP(6), tags ARRAY<STRING>, pos ROW<x DOUBLE, y DOUBLE>'.",
      "",
      "JSON lines: one object per line, fields by column name (missing ones are null). CSV: RFC 4180 with a "
          + "header row naming the columns; an empty field is null, \"\" an empty string. Values as 'ktk read' "
          + "prints them: numbers, true/false, '2024-01-02', '2024-01-02T03:04:05.123456', zoned timestamps with "
          + "Z or an offset, decimals as numbers or strings, binary in base64, arrays and rows as JSON.",
      "",
      "A record that cannot be parsed or converted, or that the dataset refuses (e.g. a null partition value), "
          + "ends the ingest with exit code 1 naming its line (--on-invalid fail), or goes with its reason to the "
          + "dead-letter file as a JSON line (--on-invalid dead-letter). Nothing is stored as something else: a "
          + "value beyond its type's range, a JSON line that is not exactly one object with each field once, a "
          + "record that is not UTF-8 are invalid. What checkpoints committed before a failure stays; the message "
          + "says how much. The summary counts records read, committed by this ingest (not by other writers) and "
          + "rejected.",
      "",
      "A changelog (--format debezium-json or canal-json, with --primary-key): each message is a change in "
          + "Flink's format of that name (debezium: before, after, op c/r/u/d); inserts and updates upsert the row "
          + "of their key, deletes delete it (see docs/cdc.md). The summary counts the changes committed.",
      "",
      "A dataset of a cube: --cube NAME --dataset-id ID [--seed] --dimension-columns a,b --partition-columns p "
          + "instead of --dataset (and without --partition-on, --index-on). Duplicate cells within a checkpoint "
          + "are invalid records; the datasets of a cube become visible to 'ktk query' per checkpoint.",
      "",
      "Examples:",
      "  ktk ingest --store file:///data --dataset events --schema 'id BIGINT, day DATE, c STRING' \\",
      "      --partition-on day --index-on c --input events.jsonl --checkpoint-dir /var/tmp/events-ingest",
      "  ktk ingest --store file:///data --dataset customers --schema 'id BIGINT NOT NULL, region STRING NOT NULL, "
          + "name STRING' \\",
      "      --partition-on region --primary-key id,region --format debezium-json --input customers-topic.jsonl",
      "  ktk ingest --store file:///data --cube shop --dataset-id seed --seed --schema 'item BIGINT, region STRING, "
          + "price DOUBLE' \\",
      "      --dimension-columns item --partition-columns region --input prices.jsonl"
    })
final class IngestCommand extends StoreCommand {
  enum OnInvalid { FAIL, DEAD_LETTER }

  @Option(names = "--dataset", paramLabel = "UUID", description = "The dataset's uuid (or --cube and --dataset-id).")
  String dataset;

  @Option(names = "--cube", paramLabel = "NAME", description = "Ingest into a dataset of this cube.")
  String cube;

  @Option(names = "--dataset-id", paramLabel = "ID", description = "With --cube: the dataset's id in the cube "
      + "(its uuid is <cube>++<id>).")
  String datasetId;

  @Option(names = "--seed", description = "With --cube: the dataset is the cube's seed (default: an enrichment).")
  boolean seed;

  @Option(names = "--dimension-columns", split = ",", paramLabel = "COL",
      description = "With --cube: the cube's dimension columns.")
  List<String> dimensionColumns = List.of();

  @Option(names = "--partition-columns", split = ",", paramLabel = "COL",
      description = "With --cube: the cube's partition columns.")
  List<String> partitionColumns = List.of();

  @Option(names = "--schema", required = true, paramLabel = "COLUMNS",
      description = "The columns and their Flink SQL types, e.g. 'a BIGINT, p STRING'.")
  String schema;

  @Option(names = "--partition-on", split = ",", paramLabel = "COL", description = "Partition columns, in order.")
  List<String> partitionOn = List.of();

  @Option(names = "--index-on", split = ",", paramLabel = "COL", description = "Columns to keep a secondary index of.")
  List<String> indexOn = List.of();

  @Option(names = "--input", paramLabel = "FILE", description = "The input file (default: stdin; '-' is stdin too).")
  String input;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "jsonl", converter = FormatConverter.class,
      description = "Input format: jsonl (default), csv, or the change envelopes of Flink's debezium-json or "
          + "canal-json formats (a CDC topic dumped to a file, one message per line; needs --primary-key, or a "
          + "cube dataset, whose key is its cell).")
  IngestFormat format;

  @Option(names = "--primary-key", split = ",", paramLabel = "COL",
      description = "The dataset's primary key (it must contain the --partition-on columns): rows are upserted by "
          + "it, and the deletes of a changelog format delete their key.")
  List<String> primaryKey = List.of();

  @Option(names = "--checkpoint-interval", paramLabel = "DURATION", defaultValue = "1s",
      converter = DurationConverter.class, description = "Checkpoint (and commit) interval (default: ${DEFAULT-VALUE}).")
  Duration checkpointInterval;

  @Option(names = "--checkpoint-dir", paramLabel = "DIR",
      description = "Retain checkpoints here and resume from the latest one when started again.")
  Path checkpointDir;

  @Option(names = "--parallelism", paramLabel = "N", description = "Parse and write parallelism (default: the "
      + "number of cores).")
  Integer parallelism;

  @Option(names = "--on-invalid", paramLabel = "fail|dead-letter", defaultValue = "fail",
      converter = OnInvalidConverter.class,
      description = "What an invalid record does: fail (default) ends the ingest; dead-letter writes it to the "
          + "dead-letter file.")
  OnInvalid onInvalid;

  @Option(names = "--dead-letter", paramLabel = "FILE", description = "The dead-letter file, appended to (default: "
      + "<dataset>.dead-letters.jsonl in the current directory).")
  Path deadLetter;

  @Option(names = "--jobmanager", paramLabel = "HOST:PORT", description = "Submit the job to this Flink session "
      + "cluster (its REST address) instead of running an embedded Flink. The connector jar, the tool's classes and "
      + "Jackson travel with the job; the input file and --checkpoint-dir must be paths the cluster reaches too.")
  String jobManager;

  @Option(names = "--connector-jar", paramLabel = "FILE", description = "With --jobmanager: the ktk-flink-connector "
      + "jar to ship with the job (default: the one the ktk launcher built).")
  Path connectorJar;

  /** Test hook: lines where the job fails once, to exercise restarts from checkpoints. */
  @Option(names = "--inject-failures-at", hidden = true, split = ",")
  Set<Long> injectFailuresAt = Set.of();

  /** The system property the ktk launcher sets to the connector jar it built. */
  static final String CONNECTOR_JAR_PROPERTY = "ktk.connector.jar";

  private RowType rowType;

  @Override
  void checkUsage() {
    if ((dataset == null) == (cube == null)) {
      throw usage("Give either --dataset or --cube with --dataset-id");
    }
    if (cube != null) {
      checkCubeUsage();
    } else if (datasetId != null || seed || !dimensionColumns.isEmpty() || !partitionColumns.isEmpty()) {
      throw usage("Options --dataset-id, --seed, --dimension-columns and --partition-columns need --cube");
    }
    if (!DatasetKeys.isValidUuid(dataset)) {
      throw usage("Invalid value for option '--dataset': '" + dataset
          + "' is not a dataset uuid (allowed: A-Z a-z 0-9 + - _)");
    }
    try {
      rowType = SchemaText.parse(schema);
    } catch (IllegalArgumentException e) {
      throw usage("Invalid value for option '--schema': " + e.getMessage());
    }
    checkColumns("--partition-on", partitionOn);
    if (cube != null) {
      checkColumns("--partition-columns", partitionColumns);
      if (seed) {
        checkColumns("--dimension-columns", dimensionColumns);
      } else if (dimensionColumns.stream().noneMatch(column -> rowType.getFieldIndex(column) >= 0)) {
        throw usage("Invalid value for option '--dimension-columns': --schema has none of " + dimensionColumns
            + " (an enrichment has at least one dimension column)");
      }
    }
    checkColumns("--index-on", indexOn);
    checkColumns("--primary-key", primaryKey);
    if (cube != null && !primaryKey.isEmpty()) {
      throw usage("Option '--primary-key' is for a plain --dataset; a cube dataset's key is its cell "
          + "(--dimension-columns and --partition-columns), used with a changelog --format");
    }
    if (cube == null && format.isChangelog() && primaryKey.isEmpty()) {
      throw usage("Option '--format " + format.cliName() + "' needs '--primary-key': the changes are applied by key");
    }
    if (input != null && !input.equals("-") && !Files.isRegularFile(Path.of(input))) {
      throw usage("Invalid value for option '--input': '" + input + "' is not a file");
    }
    if (deadLetter != null && onInvalid != OnInvalid.DEAD_LETTER) {
      throw usage("Option '--dead-letter' needs '--on-invalid dead-letter'");
    }
    if (parallelism != null && parallelism < 1) {
      throw usage("Invalid value for option '--parallelism': " + parallelism + " (at least 1)");
    }
    if (checkpointInterval.isZero() || checkpointInterval.isNegative()) {
      throw usage("Invalid value for option '--checkpoint-interval': it must be positive");
    }
    if (checkpointDir != null && Files.exists(checkpointDir) && !Files.isDirectory(checkpointDir)) {
      throw usage("Invalid value for option '--checkpoint-dir': '" + checkpointDir + "' is not a directory");
    }
    if (jobManager != null) {
      remoteCluster();
    } else if (connectorJar != null) {
      throw usage("Option '--connector-jar' needs '--jobmanager'");
    }
  }

  /** The cluster of --jobmanager, with the connector jar to ship. */
  private RemoteCluster remoteCluster() {
    Path jar = connectorJar;
    if (jar == null && System.getProperty(CONNECTOR_JAR_PROPERTY) != null) {
      jar = Path.of(System.getProperty(CONNECTOR_JAR_PROPERTY));
    }
    if (jar == null || !Files.isRegularFile(jar)) {
      throw usage("Option '--jobmanager' needs the connector jar: " + (jar == null ? "give --connector-jar FILE"
          : "'" + jar + "' is not a file; build it with mvn -pl connector -am package -DskipTests"));
    }
    try {
      return RemoteCluster.parse(jobManager, jar);
    } catch (IllegalArgumentException e) {
      throw usage("Invalid value for option '--jobmanager': " + e.getMessage());
    }
  }

  private void checkCubeUsage() {
    if (!CubeNames.isValidName(cube)) {
      throw usage("Invalid value for option '--cube': '" + cube + "' is not a cube name (allowed: A-Z a-z 0-9 + - _, "
          + "no '++', no leading or trailing '+')");
    }
    if (datasetId == null) {
      throw usage("Option '--cube' needs '--dataset-id'");
    }
    if (!CubeNames.isValidName(datasetId) || datasetId.equals(CubeCommitLog.DATASET_ID)) {
      throw usage("Invalid value for option '--dataset-id': '" + datasetId + "' is not a dataset id of a cube");
    }
    if (dimensionColumns.isEmpty() || partitionColumns.isEmpty()) {
      throw usage("Option '--cube' needs '--dimension-columns' and '--partition-columns'");
    }
    if (!partitionOn.isEmpty() || !indexOn.isEmpty()) {
      throw usage("Options '--partition-on' and '--index-on' are for a plain --dataset; a cube's datasets are "
          + "partitioned by --partition-columns, and its seed is indexed on the dimension columns");
    }
    dataset = CubeNames.datasetUuid(cube, datasetId);
    partitionOn = partitionColumns;
  }

  private void checkColumns(String option, List<String> columns) {
    for (String column : columns) {
      if (rowType.getFieldIndex(column) < 0) {
        throw usage("Invalid value for option '" + option + "': '" + column + "' is not a column of --schema "
            + "(columns: " + String.join(", ", rowType.getFieldNames()) + ")");
      }
    }
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /** The target of the rows: the plain dataset, or the dataset of the cube. */
  private IngestTarget target(ObjectStore opened) throws IOException {
    if (cube == null) {
      return new IngestTarget.Dataset(store.url, store.options, dataset, rowType, partitionOn, indexOn, primaryKey);
    }
    return new IngestTarget.CubeDataset(store.url, store.options, cube, datasetId, seed,
        seed ? datasetId : seedOf(opened), rowType, dimensionColumns, partitionColumns, format.isChangelog());
  }

  /** The seed's id of the cube as stored, or Kartothek's default when the cube has no seed yet. */
  private String seedOf(ObjectStore opened) throws IOException {
    try {
      return CubeSnapshot.latest(opened, cube).spec().seedDatasetId();
    } catch (KtkValidationException e) { // no dataset of the cube yet (NoSuchDatasetException), or no seed
      return CubeNames.DEFAULT_SEED_DATASET_ID;
    }
  }

  @Override
  int run(ObjectStore opened) throws Exception {
    IngestTarget target = target(opened);
    boolean stdin = input == null || input.equals("-");
    String inputName = stdin ? "stdin" : input;
    Path dir = checkpointDir == null ? null : checkpointDir.toAbsolutePath();
    LogReader log = new LogReader(opened, dataset);
    DatasetState logged = log.latest();
    DatasetState before = logged.exists() ? logged : log.latestOrPublished();
    // A directory URL with or without its trailing slash names the same store.
    IngestManifest asked = new IngestManifest(1, opened.url().replaceAll("/+$", ""), dataset,
        stdin ? "-" : Path.of(input).toAbsolutePath().toString(), stdin ? 0 : Files.size(Path.of(input)),
        format.name(), rowType.asSerializableString(), partitionOn, indexOn, rows(before), false, false,
        dimensionColumns, seed, false, newWriterIdPrefix(), logged.version(), onInvalid.name(), null);

    if (dir == null) {
      Path temporary = stdin ? Files.createTempFile("ktk-ingest-", ".spool") : null;
      try {
        if (stdin) {
          InputFile.spool(System.in, temporary);
        }
        return ingest(opened, target, asked, null, stdin ? temporary : Path.of(input), inputName, null);
      } finally {
        if (temporary != null) {
          Files.deleteIfExists(temporary);
        }
      }
    }
    try (IngestCheckpointDir locked = IngestCheckpointDir.open(dir, asked, stdin ? null : Path.of(input),
        onInvalid.name(), spec.commandLine())) {
      return ingest(opened, target, locked.manifest(), dir, locked.input(), inputName, locked.restoreFrom());
    }
  }

  /** A prefix no other ingest has: the ingest's commits are those of writer ids that start with it. */
  private static String newWriterIdPrefix() {
    return "ktk-ingest-" + java.util.UUID.randomUUID().toString().replace("-", "").substring(0, 12) + "-";
  }

  private int ingest(ObjectStore opened, IngestTarget target, IngestManifest manifest, Path dir, Path inputPath,
      String inputName, Path restoreFrom) throws Exception {
    InputFile inputFile = InputFile.open(inputPath, format, inputName);
    RecordParser parser;
    try {
      parser = format == IngestFormat.CSV ? RecordParser.csv(rowType, inputFile.header())
          : format.isChangelog() ? RecordParser.changelog(rowType, format) : RecordParser.jsonLines(rowType);
    } catch (InvalidRecordException e) {
      throw new KtkValidationException("Cannot ingest " + inputName + ": " + e.getMessage(), e);
    }
    ValidationPolicy policy = onInvalid == OnInvalid.DEAD_LETTER ? ValidationPolicy.DEAD_LETTER : ValidationPolicy.FAIL;
    Path deadLetterFile = deadLetter != null ? deadLetter : Path.of(dataset + ".dead-letters.jsonl");
    Path parts = null;
    if (policy == ValidationPolicy.DEAD_LETTER) {
      parts = dir != null ? dir.resolve("dead-letter-parts") : Files.createTempDirectory("ktk-ingest-dead-letters-");
    }
    int cores = Runtime.getRuntime().availableProcessors();
    IngestJob.Settings settings = new IngestJob.Settings(target, parser, inputFile.start(), inputName,
        parallelism != null ? parallelism : cores, checkpointInterval, dir == null ? null : dir.resolve("checkpoints"),
        restoreFrom, policy, parts, manifest.writerIdPrefix() != null ? manifest.writerIdPrefix() : "",
        new TreeSet<>(injectFailuresAt), jobManager == null ? null : remoteCluster());
    IngestOutcome outcome = new IngestOutcome(opened, manifest, inputFile, format, inputName, target.describe());

    PrintWriter err = err();
    if (manifest.jobFinished()) {
      // an earlier start ran the job to its end and stopped before finishing up: finish up only
      err.println("The ingest's job ran to its end before; collecting its dead letters");
      err.flush();
    } else {
      if (restoreFrom != null) {
        err.println("Resuming the ingest from checkpoint " + restoreFrom);
        err.flush();
      }
      try {
        runJob(settings, outcome);
      } catch (KtkException e) {
        long rejected = 0;
        if (parts != null && dir == null) {
          // No run can resume this one: hand on the dead letters of the checkpoints it completed.
          rejected = DeadLetterSink.collect(parts, deadLetterFile);
          DeadLetterSink.cleanUp(parts);
        }
        throw outcome.stopped(e, policy, dir, rejected, deadLetterFile);
      }
      if (dir != null) {
        manifest.withJobFinished().save(dir);
      }
    }

    long rejected = parts == null ? 0 : DeadLetterSink.collect(parts, deadLetterFile);
    long read = inputFile.countRecords(format);
    long committed = outcome.committed();
    // canal-json messages hold any number of changes: records and rows need not add up
    String problem = format.oneRowPerRecord() ? IngestOutcome.unaccounted(read, committed, rejected) : null;
    if (dir != null) {
      IngestCheckpointDir.finish(dir, manifest, problem);
    }
    if (parts != null) {
      DeadLetterSink.cleanUp(parts);
    }
    long version = new LogReader(opened, dataset).latest().version();
    PrintWriter out = out();
    out.println("Ingested " + inputName + " into " + target.describe() + " (version " + version + "): "
        + read + " records read, " + committed + " committed, " + rejected + " rejected"
        + (policy == ValidationPolicy.DEAD_LETTER ? " (dead letters in " + deadLetterFile + ")" : "") + ".");
    out.flush();
    if (problem != null) {
      err.println(outcome.unaccountedMessage(problem) + (dir == null ? "" : " The checkpoint directory " + dir
          + " is kept as it is, marked finished: running the ingest again would not repair this."));
      return Ktk.ERROR;
    }
    return Ktk.OK;
  }

  private void runJob(IngestJob.Settings settings, IngestOutcome outcome) throws Exception {
    try (Progress progress = progress("rows committed", -1)) {
      IngestJob.run(settings, () -> {
        try {
          progress.set(outcome.committed());
        } catch (IOException | RuntimeException e) {
          // Progress is a courtesy; the job's own outcome decides.
        }
      });
    }
  }

  private static long rows(DatasetState state) {
    return state.exists() ? state.files().values().stream().mapToLong(DataFile::rows).sum() : 0;
  }

  /** jsonl | csv | debezium-json | canal-json. */
  static final class FormatConverter implements picocli.CommandLine.ITypeConverter<IngestFormat> {
    @Override
    public IngestFormat convert(String value) {
      try {
        return IngestFormat.ofCliName(value);
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }

  /** fail | dead-letter. */
  static final class OnInvalidConverter implements picocli.CommandLine.ITypeConverter<OnInvalid> {
    @Override
    public OnInvalid convert(String value) {
      return switch (value.toLowerCase(java.util.Locale.ROOT)) {
        case "fail" -> OnInvalid.FAIL;
        case "dead-letter" -> OnInvalid.DEAD_LETTER;
        default -> throw new picocli.CommandLine.TypeConversionException("'" + value
            + "' is not fail or dead-letter");
      };
    }
  }
}
