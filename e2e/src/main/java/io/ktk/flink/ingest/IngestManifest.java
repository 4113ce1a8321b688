package io.ktk.flink.ingest;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What an ingest with {@code --checkpoint-dir} wrote down at its first start, in {@value #FILE}
 * there, so that a second start can tell whether the directory's checkpoints belong to the same
 * ingest before resuming from them:
 *
 * <pre>{@code
 * {"version":1,"store":"file:///data/","dataset":"events","input":"/in/events.jsonl","inputBytes":1048576,
 *  "format":"JSONL","schema":"ROW<`id` BIGINT, `p` STRING>","partitionOn":["p"],"indexOn":[],
 *  "rowsBefore":0,"spooled":false,"finished":false,"dimensionColumns":[],"seed":false,"jobFinished":false,
 *  "writerIdPrefix":"ktk-ingest-3f9c2a7d1e6b-","versionBefore":-1,"onInvalid":"FAIL","accountingProblem":null}
 * }</pre>
 *
 * {@code input} is {@code -} for stdin, spooled to {@value #SPOOL} in the directory; {@code spooled}
 * says the spool is complete. {@code rowsBefore} is the dataset's row count before the first start,
 * for the summary. {@code jobFinished} marks an ingest whose Flink job ran to its end (every record
 * committed or a dead letter; what may remain is collecting the dead letters), {@code finished} one
 * that ran to its end altogether; a manifest without {@code jobFinished} (written before it
 * existed) reads as false. For a dataset of a cube,
 * {@code dataset} is its uuid ({@code <cube>++<id>}), {@code partitionOn} the cube's partition
 * columns, and {@code dimensionColumns} and {@code seed} what the cube options said.
 *
 * <p>{@code writerIdPrefix} starts the writer ids of the ingest's sink, in every run of it, and
 * {@code versionBefore} is the log's version before the first start (-1: none): together they
 * find the ingest's own commits ({@link CommittedRows}). {@code onInvalid} is the {@code
 * --on-invalid} policy in effect ({@code FAIL} or {@code DEAD_LETTER}). {@code accountingProblem}
 * says why a finished ingest's records did not add up, or is null. A manifest written before these
 * existed has them null (and -1): its ingest counts what it committed as the dataset's growth.
 */
public record IngestManifest(int version, String store, String dataset, String input, long inputBytes,
    String format, String schema, List<String> partitionOn, List<String> indexOn, long rowsBefore,
    boolean spooled, boolean finished, List<String> dimensionColumns, boolean seed, boolean jobFinished,
    String writerIdPrefix, Long versionBefore, String onInvalid, String accountingProblem) {
  public static final String FILE = "ingest.json";
  public static final String SPOOL = "stdin.spool";
  private static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.INDENT_OUTPUT);

  public IngestManifest {
    requireNonNull(store, "store is null");
    requireNonNull(dataset, "dataset is null");
    requireNonNull(input, "input is null");
    requireNonNull(format, "format is null");
    requireNonNull(schema, "schema is null");
    partitionOn = List.copyOf(partitionOn);
    indexOn = List.copyOf(indexOn);
    dimensionColumns = dimensionColumns == null ? List.of() : List.copyOf(dimensionColumns);
    versionBefore = versionBefore == null ? -1 : versionBefore;
  }

  /** The manifest in {@code dir}, if there is one. */
  public static Optional<IngestManifest> load(Path dir) throws IOException {
    Path file = dir.resolve(FILE);
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    return Optional.of(JSON.readValue(file.toFile(), IngestManifest.class));
  }

  /** Writes it to {@code dir}, replacing the previous one atomically. */
  public void save(Path dir) throws IOException {
    Files.createDirectories(dir);
    Path temp = dir.resolve(FILE + ".tmp");
    JSON.writeValue(temp.toFile(), this);
    Files.move(temp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /** How {@code other} (the ingest asked for now) differs from this one, as "--option: was x, now y" items. */
  public List<String> differences(IngestManifest other) {
    List<String> differences = new ArrayList<>();
    compare(differences, "--store", store, other.store);
    compare(differences, "--dataset", dataset, other.dataset);
    compare(differences, "--input", input, other.input);
    compare(differences, "--format", format, other.format);
    compare(differences, "--schema", schema, other.schema);
    compare(differences, "--partition-on", String.join(",", partitionOn), String.join(",", other.partitionOn));
    compare(differences, "--index-on", String.join(",", indexOn), String.join(",", other.indexOn));
    compare(differences, "--dimension-columns", String.join(",", dimensionColumns),
        String.join(",", other.dimensionColumns));
    compare(differences, "--seed", String.valueOf(seed), String.valueOf(other.seed));
    return differences;
  }

  private static void compare(List<String> differences, String option, String was, String now) {
    if (!was.equals(now)) {
      differences.add(option + " was '" + was + "', now '" + now + "'");
    }
  }

  public IngestManifest withSpooled(long bytes) {
    return new IngestManifest(version, store, dataset, input, bytes, format, schema, partitionOn, indexOn,
        rowsBefore, true, finished, dimensionColumns, seed, jobFinished, writerIdPrefix, versionBefore, onInvalid,
        accountingProblem);
  }

  public IngestManifest withJobFinished() {
    return new IngestManifest(version, store, dataset, input, inputBytes, format, schema, partitionOn, indexOn,
        rowsBefore, spooled, finished, dimensionColumns, seed, true, writerIdPrefix, versionBefore, onInvalid,
        accountingProblem);
  }

  /** Finished; {@code problem} says why its records did not add up, or is null when they did. */
  public IngestManifest withFinished(String problem) {
    return new IngestManifest(version, store, dataset, input, inputBytes, format, schema, partitionOn, indexOn,
        rowsBefore, spooled, true, dimensionColumns, seed, jobFinished, writerIdPrefix, versionBefore, onInvalid,
        problem);
  }

  /** With {@code --on-invalid} {@code policy} from now on. */
  public IngestManifest withOnInvalid(String policy) {
    return new IngestManifest(version, store, dataset, input, inputBytes, format, schema, partitionOn, indexOn,
        rowsBefore, spooled, finished, dimensionColumns, seed, jobFinished, writerIdPrefix, versionBefore, policy,
        accountingProblem);
  }
}
