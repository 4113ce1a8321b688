package io.ktk.flink.source.query;

/**
 * What a cube query's parts mean. {@link #SQL} is this project's meaning; {@link #KARTOTHEK} gives
 * the rows Kartothek 5.3's {@code query_cube} returns, for people who migrate from it and compare.
 * {@code docs/cube-query.md} lists every difference with an example.
 */
public enum QuerySemantics {
  /**
   * SQL's three-valued logic: a comparison with null is unknown and drops the row, whatever the
   * operator ({@code !=} too); NaN is a value, equal to NaN and above +inf. A cell's last-written
   * row decides whether it passes. {@code columns} are the result's columns, in order.
   */
  SQL,

  /**
   * Kartothek 5.3 (pandas): null and NaN are the same missing value; it fails every comparison
   * except {@code !=}, which keeps it, and NaN is refused as a literal. Rows are filtered while they
   * are read and the last passing row of a cell is kept; row groups are skipped as Kartothek's
   * reader skips them (also a group whose every non-null value equals a {@code !=} literal, with its
   * nulls). {@code columns} are {@code query_cube}'s {@code payload_columns}: the result has them,
   * the dimension, {@code partition_by} and partition columns, sorted by name; the dimension columns
   * default to all of the cube's; {@code datasets}, when given, must name the seed.
   */
  KARTOTHEK
}
