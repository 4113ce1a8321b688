package io.ktk.flink.sink.config;

import static org.apache.flink.configuration.ConfigOptions.key;

import java.time.Duration;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;

/**
 * The sink's options, as keys of a Flink configuration or of a SQL table's {@code WITH} clause;
 * {@link io.ktk.flink.sink.KartothekSinkBuilder#options} reads them, and so does the SQL connector. Store options
 * ({@code endpoint}, {@code region}, credentials, see {@link io.ktk.flink.state.store.StoreOptions})
 * are given with the prefix {@value #STORE_OPTION_PREFIX}, e.g. {@code 'store.endpoint' =
 * 'http://127.0.0.1:9000'}.
 */
@PublicEvolving
public final class KartothekSinkOptions {
  /** Prefix of the object store's own options. */
  public static final String STORE_OPTION_PREFIX = "store.";

  public static final ConfigOption<String> STORE =
      key("store")
          .stringType()
          .noDefaultValue()
          .withDescription("Root of the object store holding the dataset: file:///absolute/dir or "
              + "s3://bucket/prefix. Store options follow with the prefix 'store.'.");

  public static final ConfigOption<String> DATASET =
      key("dataset")
          .stringType()
          .noDefaultValue()
          .withDescription("Uuid of the dataset to write; it is created by the first commit if it does not "
              + "exist.");

  public static final ConfigOption<List<String>> PARTITION_COLUMNS =
      key("partition-columns")
          .stringType()
          .asList()
          .defaultValues()
          .withDescription("Partition columns, in order, separated by commas (Kartothek partition_on). They are not stored in the "
              + "data files but in the partition directories. In SQL, PARTITIONED BY sets them.");

  public static final ConfigOption<List<String>> INDEX_COLUMNS =
      key("index-columns")
          .stringType()
          .asList()
          .defaultValues()
          .withDescription("Secondary index columns, separated by commas (Kartothek secondary_indices). Columns the dataset "
              + "already indexes are indexed whether listed or not.");

  public static final ConfigOption<List<String>> PRIMARY_KEY =
      key("primary-key")
          .stringType()
          .asList()
          .defaultValues()
          .withDescription("The dataset's primary key, columns separated by commas; it must contain every partition "
              + "column. With a key the sink takes a changelog: +I and +U rows upsert the row of their key, -D rows "
              + "delete it, -U rows are ignored (see docs/cdc.md). The key is stored in the dataset's metadata "
              + "(ktk_primary_key) by the first commit. In SQL, PRIMARY KEY (...) NOT ENFORCED sets it.");

  public static final ConfigOption<Compression> COMPRESSION =
      key("compression")
          .enumType(Compression.class)
          .defaultValue(Compression.SNAPPY)
          .withDescription("Codec of the Parquet pages: SNAPPY or ZSTD.");

  public static final ConfigOption<MemorySize> ROW_GROUP_SIZE =
      key("row-group-size")
          .memoryType()
          .defaultValue(MemorySize.ofMebiBytes(128))
          .withDescription("A Parquet row group is cut when this much encoded data is buffered for a file.");

  public static final ConfigOption<MemorySize> MEMORY_BUDGET =
      key("memory-budget")
          .memoryType()
          .defaultValue(MemorySize.ofMebiBytes(128))
          .withDescription("Memory of all partition buffers of one writer subtask together, with the "
              + "value blocks pooled for them: the heap the writer holds, whatever the number of partitions. "
              + "When it is exceeded the pool gives blocks back and the largest buffers are written as Parquet "
              + "part files, until a quarter of it is free; they become visible with the next commit.");

  public static final ConfigOption<ValidationPolicy> VALIDATION_POLICY =
      key("validation-policy")
          .enumType(ValidationPolicy.class)
          .defaultValue(ValidationPolicy.FAIL)
          .withDescription("What happens to records that break a rule of the dataset (null partition or "
              + "index values, timestamps finer than microseconds): FAIL the job, or send them with the "
              + "reason to the DEAD_LETTER output.");

  public static final ConfigOption<WriteMode> WRITE_MODE =
      key("write-mode")
          .enumType(WriteMode.class)
          .defaultValue(WriteMode.APPEND)
          .withDescription("APPEND adds files; REPLACE_PARTITIONS makes the partitions a checkpoint writes "
              + "hold only what that checkpoint wrote (Kartothek's delete_scope, per checkpoint).");

  public static final ConfigOption<Duration> COMMIT_VERIFY_FILES_OLDER_THAN =
      key("commit.verify-files-older-than")
          .durationType()
          .defaultValue(Duration.ZERO)
          .withDescription("Before committing a checkpoint whose files were written longer ago than this, the "
              + "committer checks with one HEAD request per file (in parallel) that they all still exist; garbage "
              + "collection (ktk gc) deletes uncommitted files older than its safety age, and a job restored after "
              + "being down, or GC run with too short an age, would otherwise commit references to deleted files. "
              + "When files are missing, nothing of the checkpoint is committed and the job fails, naming them. "
              + "0 (the default) checks every checkpoint; a longer age saves the requests for young batches.");

  public static final ConfigOption<Duration> PUBLISH_MIN_INTERVAL =
      key("publish.min-interval")
          .durationType()
          .defaultValue(Duration.ZERO)
          .withDescription("The least time between two publications of a dataset's plateau view (metadata "
              + "JSON, _common_metadata, index files). The committer's publisher thread publishes off the commit "
              + "path, so commits never wait for it; a publication rewrites the metadata JSON, which lists every "
              + "file, so on large datasets with short checkpoint intervals publish less often. Readers of the "
              + "commit log (this project's source and ktk) see every commit at once; plateau and Kartothek readers "
              + "see the view of the last publication, at most this old while commits go on, and the latest one "
              + "after the job ends. 0 publishes after every commit.");

  public static final ConfigOption<String> WRITER_ID_PREFIX =
      key("writer-id-prefix")
          .stringType()
          .defaultValue("")
          .withDescription("Put before the writer ids the sink generates (up to 64 of A-Z a-z 0-9 . _ -). Every log "
              + "entry of a commit carries its writer id, so a tool that gives each of its jobs its own prefix can "
              + "tell that job's commits from those of other writers of the dataset (ktk ingest does, to count "
              + "what it committed).");

  public static final ConfigOption<List<String>> DIMENSION_COLUMNS =
      key("dimension-columns")
          .stringType()
          .asList()
          .defaultValues()
          .withDescription("Cube sink only: the cube's dimension columns, in order, separated by commas "
              + "(Kartothek dimension_columns); in SQL, taken from the store when the cube exists; with the partition columns they identify a cell.");

  public static final ConfigOption<List<String>> SUPPRESS_INDEX_ON =
      key("suppress-index-on")
          .stringType()
          .asList()
          .defaultValues()
          .withDescription("Cube sink only: dimension columns the seed gets no secondary index on "
              + "(Kartothek suppress_index_on).");

  public static final ConfigOption<String> CUBE =
      key("cube")
          .stringType()
          .noDefaultValue()
          .withDescription("SQL tables only: the name of the cube one of whose datasets the table writes "
              + "(<cube>++<id>, through the cube sink: cube metadata, the seed's indices, duplicate cells refused, "
              + "cube transactions). Instead of 'dataset'.");

  public static final ConfigOption<List<String>> DATASETS =
      key("datasets")
          .stringType()
          .asList()
          .defaultValues()
          .withDescription("With 'cube': the id of the dataset the table writes (one id; default: the cube's "
              + "seed as stored, or 'seed' for a new cube). Read, the table joins it onto the seed.");

  private KartothekSinkOptions() {}

  /** Every option of the SQL sink: {@link #all()}, {@link #cubeOnly()}, {@link #CUBE} and {@link #DATASETS}. */
  public static List<ConfigOption<?>> table() {
    List<ConfigOption<?>> options = new java.util.ArrayList<>(all());
    options.addAll(cubeOnly());
    options.add(CUBE);
    options.add(DATASETS);
    return List.copyOf(options);
  }

  /** The options of the cube sink ({@link io.ktk.flink.sink.KartothekCubeSinkBuilder#options}) besides {@link #all()}'s. */
  public static List<ConfigOption<?>> cubeOnly() {
    return List.of(DIMENSION_COLUMNS, SUPPRESS_INDEX_ON);
  }

  /** Every option, for factories that list what they accept. */
  public static List<ConfigOption<?>> all() {
    return List.of(STORE, DATASET, PARTITION_COLUMNS, INDEX_COLUMNS, PRIMARY_KEY, COMPRESSION, ROW_GROUP_SIZE, MEMORY_BUDGET,
        VALIDATION_POLICY, WRITE_MODE, COMMIT_VERIFY_FILES_OLDER_THAN, PUBLISH_MIN_INTERVAL, WRITER_ID_PREFIX);
  }
}
