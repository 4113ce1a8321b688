package io.ktk.flink.state.metadata;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.KtkValidationException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * A Kartothek partition label: one {@code <column>=<value>} segment per partition key of the
 * dataset, in the dataset's order, then the file id. Each label names one data file, e.g. label
 * {@code p=1/q=a%20b/0f5e1c0d9b8a4f7e8d6c5b4a39281706} is the file
 * {@code <uuid>/table/p=1/q=a%20b/0f5e1c0d9b8a4f7e8d6c5b4a39281706.parquet}; its physical partition is
 * {@code p=1/q=a%20b}. Column names and values are percent-encoded as {@link PartitionValues} says.
 *
 * <p>File ids this project creates are 32 lowercase hex digits, as plateau's {@code gen_uuid()}
 * (a random UUID): the first 16 are the creating process's clock and a counter, so that the files
 * one process writes sort in the order it wrote them ({@link #newFileId()}), the last 16 random;
 * labels read from plateau datasets may carry any other non-empty id.
 *
 * @param values the partition key values, in the dataset's partition key order
 * @param fileId the last segment of the label
 */
public record PartitionLabel(List<Value> values, String fileId) {
  /**
   * The most bytes a {@code <column>=<value>} segment may have: it is a directory name, and file
   * systems (ext4, XFS, APFS, NTFS) allow names of at most 255 bytes. plateau writes the same
   * segment, so a longer one would fail there too.
   */
  public static final int MAX_SEGMENT_BYTES = 255;

  /**
   * One partition key's value.
   *
   * @param column the column name (decoded)
   * @param segment the value as it appears in the label (percent-encoded)
   * @param value the typed value ({@link PartitionValues} convention); never null
   */
  public record Value(String column, String segment, Object value) {
    public Value {
      requireNonNull(column, "column is null");
      requireNonNull(segment, "segment is null");
      requireNonNull(value, "value is null");
      if (segment.indexOf('/') >= 0) {
        throw new IllegalArgumentException("segment contains '/': " + segment);
      }
    }

    /** Equal when column and segment are equal; the segment determines the typed value. */
    @Override
    public boolean equals(Object o) {
      return o instanceof Value other && column.equals(other.column) && segment.equals(other.segment);
    }

    @Override
    public int hashCode() {
      return Objects.hash(column, segment);
    }

    @Override
    public String toString() {
      return PartitionValues.encodeColumnName(column) + "=" + segment;
    }
  }

  public PartitionLabel {
    values = List.copyOf(requireNonNull(values, "values is null"));
    requireNonNull(fileId, "fileId is null");
    if (fileId.isEmpty() || fileId.indexOf('/') >= 0) {
      throw new IllegalArgumentException("fileId must be non-empty and without '/': '" + fileId + "'");
    }
  }

  /**
   * A label for typed values of the partition keys.
   *
   * @throws io.ktk.flink.state.KtkValidationException when a key's type or value cannot be a partition
   *     value, or its segment would be longer than {@value #MAX_SEGMENT_BYTES} bytes
   */
  public static PartitionLabel of(List<Field> partitionKeys, List<?> values, String fileId) {
    requireNonNull(partitionKeys, "partitionKeys is null");
    requireNonNull(values, "values is null");
    if (partitionKeys.size() != values.size()) {
      throw new IllegalArgumentException(
          partitionKeys.size() + " partition keys but " + values.size() + " values: " + values);
    }
    List<Value> encoded = new ArrayList<>(values.size());
    for (int i = 0; i < values.size(); i++) {
      Field key = partitionKeys.get(i);
      Value value = new Value(key.getName(), PartitionValues.encode(key, values.get(i)), values.get(i));
      checkLength(value);
      encoded.add(value);
    }
    return new PartitionLabel(encoded, fileId);
  }

  private static void checkLength(Value value) {
    String segment = value.toString(); // percent-encoded: ASCII, a byte per character
    if (segment.length() > MAX_SEGMENT_BYTES) {
      String shown = String.valueOf(value.value());
      if (shown.length() > 60) {
        shown = shown.substring(0, 60) + "... (" + shown.codePointCount(0, shown.length()) + " characters)";
      }
      throw new KtkValidationException("Cannot use " + shown + " as a partition value of column " + value.column()
          + ": its directory name " + segment.substring(0, 40) + "... is " + segment.length()
          + " bytes long once percent-encoded, and a file or directory name may have at most " + MAX_SEGMENT_BYTES);
    }
  }

  /**
   * A new file id: 32 lowercase hex digits, increasing in the order this process creates them
   * (clock and counter), then random.
   */
  public static String newFileId() {
    long time = System.currentTimeMillis();
    long sequence;
    synchronized (PartitionLabel.class) {
      // Millis in the top 44 bits, a counter in the low 20: increasing within the process even when
      // the clock stands still or steps back.
      sequence = Math.max(time << 20, lastSequence + 1);
      lastSequence = sequence;
    }
    return String.format("%016x%016x", sequence, java.util.concurrent.ThreadLocalRandom.current().nextLong());
  }

  private static long lastSequence;

  /**
   * Parses a label of a dataset with the given partition keys, decoding each value with its key's type.
   *
   * @throws CorruptDatasetException when the label has another number of key segments than the
   *     dataset has partition keys, names them in another order, or holds a value its type does not allow
   */
  public static PartitionLabel parse(String label, List<Field> partitionKeys) {
    requireNonNull(label, "label is null");
    requireNonNull(partitionKeys, "partitionKeys is null");
    String[] segments = label.split("/", -1);
    int depth = segments.length - 1;
    String keys = partitionKeys.stream().map(Field::getName).collect(Collectors.joining(", "));
    if (depth != partitionKeys.size()) {
      throw new CorruptDatasetException("Cannot read partition label " + label + ": it has " + depth
          + " partition key segment(s), the dataset's partition keys are [" + keys + "]");
    }
    List<Value> values = new ArrayList<>(depth);
    for (int i = 0; i < depth; i++) {
      String segment = segments[i];
      int eq = segment.indexOf('=');
      if (eq < 0 || segment.indexOf('=', eq + 1) >= 0) {
        throw new CorruptDatasetException("Cannot read partition label " + label + ": segment '" + segment
            + "' is not <column>=<value>");
      }
      String column;
      try {
        column = PercentEncoding.unquote(segment.substring(0, eq));
      } catch (IllegalArgumentException e) {
        throw new CorruptDatasetException("Cannot read partition label " + label + ": column name '"
            + segment.substring(0, eq) + "' is not percent-encoded UTF-8 (" + e.getMessage() + ")");
      }
      if (!PercentEncoding.quote(column).equals(segment.substring(0, eq))) {
        // toString() re-encodes names, so only the canonical form keeps the label's text
        throw new CorruptDatasetException("Cannot read partition label " + label + ": column name '"
            + segment.substring(0, eq) + "' is not canonically encoded (expected '" + PercentEncoding.quote(column) + "')");
      }
      Field key = partitionKeys.get(i);
      if (!column.equals(key.getName())) {
        throw new CorruptDatasetException("Cannot read partition label " + label + ": segment " + (i + 1)
            + " is column '" + column + "', expected '" + key.getName() + "' (partition keys [" + keys + "])");
      }
      String valueSegment = segment.substring(eq + 1);
      values.add(new Value(column, valueSegment, PartitionValues.decode(label, key, valueSegment)));
    }
    String fileId = segments[depth];
    if (fileId.isEmpty()) {
      throw new CorruptDatasetException("Cannot read partition label " + label + ": the file id is empty");
    }
    return new PartitionLabel(values, fileId);
  }

  /** The {@code p=1/q=a} part: the directory of the label's file below the table; empty without keys. */
  public String physicalPartition() {
    return values.stream().map(Value::toString).collect(Collectors.joining("/"));
  }

  /** The typed values in partition key order. */
  public List<Object> typedValues() {
    return values.stream().map(Value::value).collect(Collectors.toUnmodifiableList());
  }

  /** The same partition values with another file id. */
  public PartitionLabel withFileId(String newFileId) {
    return new PartitionLabel(values, newFileId);
  }

  @Override
  public String toString() {
    return values.isEmpty() ? fileId : physicalPartition() + "/" + fileId;
  }
}
