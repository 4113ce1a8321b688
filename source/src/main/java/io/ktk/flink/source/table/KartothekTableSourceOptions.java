package io.ktk.flink.source.table;

import static org.apache.flink.configuration.ConfigOptions.key;

import io.ktk.flink.source.KartothekSourceOptions;
import io.ktk.flink.state.KtkValidationException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;

/**
 * The options of the SQL table source {@code 'connector' = 'kartothek'}, as keys of a table's
 * {@code WITH} clause: {@code store} and exactly one of {@code cube} and {@code dataset}. Store options ({@code endpoint}, {@code region}, credentials, see {@link
 * io.ktk.flink.state.store.StoreOptions}) are given with the prefix {@value #STORE_OPTION_PREFIX},
 * as for the sink.
 *
 * <p>By default the scan is bounded: it reads the versions that are the latest when the query is
 * planned. {@code scan.mode} makes the scan continuous; {@code scan.version} and {@code
 * scan.as-of-timestamp} read an earlier version of a dataset table.
 */
@PublicEvolving
public final class KartothekTableSourceOptions {
  /** Prefix of the object store's own options. */
  public static final String STORE_OPTION_PREFIX = "store.";

  public static final ConfigOption<String> STORE =
      key("store")
          .stringType()
          .noDefaultValue()
          .withDescription("Root of the object store holding the cube: file:///absolute/dir or s3://bucket/prefix. "
              + "Store options follow with the prefix 'store.'.");

  public static final ConfigOption<String> CUBE =
      key("cube")
          .stringType()
          .noDefaultValue()
          .withDescription("Name of the cube to read (its datasets are <cube>++<dataset id>). Exactly one of 'cube'"
              + " and 'dataset' is given.");

  public static final ConfigOption<String> DATASET =
      key("dataset")
          .stringType()
          .noDefaultValue()
          .withDescription("Uuid of a plain dataset (not a cube) to read: every row of every file is a row of the"
              + " table. Exactly one of 'cube' and 'dataset' is given.");

  public static final ConfigOption<List<String>> DATASETS =
      key("datasets")
          .stringType()
          .asList()
          .defaultValues()
          .withDescription("Ids of the cube's datasets the table uses (the seed always); default: all. The table's "
              + "columns come from these datasets. Only with 'cube'.");

  /** How a table is read: once, or on and on. */
  @PublicEvolving
  public enum ScanMode {
    /** The versions that are the latest when the query is planned (or those of the time-travel options). */
    BOUNDED,
    /**
     * The pinned versions, then what later commits add to the seed (cube) or dataset, until the job is
     * stopped; a dataset with a primary key as an upsert changelog.
     */
    CONTINUOUS
  }

  public static final ConfigOption<ScanMode> SCAN_MODE =
      key("scan.mode")
          .enumType(ScanMode.class)
          .defaultValue(ScanMode.BOUNDED)
          .withDescription("BOUNDED reads the versions pinned when the query is planned and ends; CONTINUOUS "
              + "keeps running and serves what later commits add to the seed or dataset (append-only, as "
              + "KartothekSource's continuous mode; for a dataset with a primary key an upsert changelog keyed by "
              + "it, which the table must declare as its PRIMARY KEY).");

  public static final ConfigOption<Duration> SCAN_DISCOVERY_INTERVAL =
      key("scan.discovery-interval")
          .durationType()
          .defaultValue(KartothekSourceOptions.DISCOVERY_INTERVAL.defaultValue())
          .withDescription("With scan.mode CONTINUOUS: how often the source looks for later versions.");

  public static final ConfigOption<Long> SCAN_VERSION =
      key("scan.version")
          .longType()
          .noDefaultValue()
          .withDescription("Dataset tables: read this version of the dataset's commit log instead of the latest "
              + "(time travel). Refused for cube tables, whose datasets each have versions of their own: use "
              + "scan.as-of-timestamp. Not with scan.as-of-timestamp.");

  public static final ConfigOption<String> SCAN_AS_OF_TIMESTAMP =
      key("scan.as-of-timestamp")
          .stringType()
          .noDefaultValue()
          .withDescription("Read the table as it was at this time, an ISO-8601 instant such as "
              + "2024-05-01T10:00:00Z or epoch milliseconds (time travel; FOR SYSTEM_TIME AS OF in a Kartothek "
              + "catalog sets it): a dataset table at the version that was the latest then, a cube table at each "
              + "dataset's version of then, without cube transactions recorded later. Not with scan.version.");

  private KartothekTableSourceOptions() {}

  /** Every option, for the factory. */
  public static List<ConfigOption<?>> all() {
    return List.of(STORE, CUBE, DATASET, DATASETS, SCAN_MODE, SCAN_DISCOVERY_INTERVAL, SCAN_VERSION,
        SCAN_AS_OF_TIMESTAMP);
  }

  /**
   * The instant of {@link #SCAN_AS_OF_TIMESTAMP}: ISO-8601 with an offset or zone, or epoch milliseconds.
   *
   * @throws KtkValidationException naming the value and the forms accepted
   */
  public static Instant parseInstant(String text) {
    String trimmed = text.trim();
    try {
      if (trimmed.matches("-?\\d+")) {
        return Instant.ofEpochMilli(Long.parseLong(trimmed));
      }
      return OffsetDateTime.parse(trimmed).toInstant();
    } catch (DateTimeParseException | NumberFormatException e) {
      throw new KtkValidationException("Cannot read the time '" + text + "' of option '" + SCAN_AS_OF_TIMESTAMP.key()
          + "': use an ISO-8601 instant with its offset, e.g. 2024-05-01T10:00:00Z, or epoch milliseconds");
    }
  }
}
