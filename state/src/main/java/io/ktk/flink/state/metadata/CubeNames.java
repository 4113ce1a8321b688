package io.ktk.flink.state.metadata;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.KtkValidationException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Names of Kartothek cubes and their datasets. A cube {@code sales} with dataset ids {@code seed} and
 * {@code enrich} consists of the datasets {@code sales++seed} and {@code sales++enrich} (Kartothek's
 * {@code KTK_CUBE_UUID_SEPERATOR}).
 *
 * <p>Cube names and dataset ids follow Kartothek's rules: non-empty, only {@code A-Z a-z 0-9 + - _}
 * (so no {@code /}), and no {@code ++}. This project also refuses a leading or trailing {@code +}:
 * Kartothek allows it, but then {@code a+} / {@code b} and {@code a} / {@code +b} both give
 * {@code a+++b}, and a uuid could not be split back.
 */
public final class CubeNames {
  /** Between cube name and dataset id in a dataset uuid. */
  public static final String SEPARATOR = "++";
  /** Kartothek's default id of the seed dataset. */
  public static final String DEFAULT_SEED_DATASET_ID = "seed";

  private static final Pattern NAME = Pattern.compile("[a-zA-Z0-9+\\-_]+");

  /** A cube dataset uuid split into its parts. */
  public record DatasetName(String cube, String datasetId) {
    public DatasetName {
      checkName("cube name", cube);
      checkName("dataset id", datasetId);
    }

    public String uuid() {
      return cube + SEPARATOR + datasetId;
    }

    @Override
    public String toString() {
      return uuid();
    }
  }

  private CubeNames() {}

  /** {@code <cube>++<dataset id>}. */
  public static String datasetUuid(String cube, String datasetId) {
    return new DatasetName(cube, datasetId).uuid();
  }

  /** {@code <cube>++}: the prefix of all dataset uuids of the cube. */
  public static String uuidPrefix(String cube) {
    checkName("cube name", cube);
    return cube + SEPARATOR;
  }

  /**
   * Splits a cube dataset uuid.
   *
   * @throws KtkValidationException when the uuid is not {@code <cube>++<dataset id>} with valid names
   */
  public static DatasetName parse(String datasetUuid) {
    requireNonNull(datasetUuid, "datasetUuid is null");
    int at = datasetUuid.indexOf(SEPARATOR);
    if (at < 0) {
      throw new KtkValidationException("Cannot read cube dataset uuid '" + datasetUuid + "': it has no '" + SEPARATOR
          + "' between cube name and dataset id");
    }
    try {
      return new DatasetName(datasetUuid.substring(0, at), datasetUuid.substring(at + SEPARATOR.length()));
    } catch (KtkValidationException e) {
      throw new KtkValidationException("Cannot read cube dataset uuid '" + datasetUuid + "': " + e.getMessage(), e);
    }
  }

  /** The dataset id when {@code datasetUuid} belongs to {@code cube}, else empty. */
  public static Optional<String> datasetId(String cube, String datasetUuid) {
    String prefix = uuidPrefix(cube);
    if (datasetUuid == null || !datasetUuid.startsWith(prefix)) {
      return Optional.empty();
    }
    String id = datasetUuid.substring(prefix.length());
    return isValidName(id) ? Optional.of(id) : Optional.empty();
  }

  /** Whether {@code name} is a valid cube name or dataset id. */
  public static boolean isValidName(String name) {
    return name != null
        && NAME.matcher(name).matches()
        && !name.contains(SEPARATOR)
        && !name.startsWith("+")
        && !name.endsWith("+");
  }

  /**
   * Checks a cube name or dataset id.
   *
   * @param what "cube name" or "dataset id", for the message
   * @throws KtkValidationException naming the rule that {@code name} breaks
   */
  public static void checkName(String what, String name) {
    requireNonNull(what, "what is null");
    if (name == null || name.isEmpty()) {
      throw new KtkValidationException("Cannot use " + what + " '" + name + "': it must not be empty");
    }
    if (!NAME.matcher(name).matches()) {
      throw new KtkValidationException("Cannot use " + what + " '" + name
          + "': only letters A-Z a-z, digits and '+', '-', '_' are allowed (no '/')");
    }
    if (name.contains(SEPARATOR)) {
      throw new KtkValidationException("Cannot use " + what + " '" + name + "': it must not contain the separator '"
          + SEPARATOR + "'");
    }
    if (name.startsWith("+") || name.endsWith("+")) {
      throw new KtkValidationException("Cannot use " + what + " '" + name
          + "': it must not start or end with '+' (the uuid could not be split at '" + SEPARATOR + "')");
    }
  }
}
