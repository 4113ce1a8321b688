package io.ktk.flink.source.planner;

import org.apache.flink.annotation.Internal;

/**
 * How a dataset takes part in a cube query (the terms of Kartothek's query system).
 *
 * <ul>
 *   <li>{@link #SEED}: the ground truth of which cells exist; every result row is one of its cells
 *       (projected to the query's dimension columns).
 *   <li>{@link #RESTRICTED}: a dataset whose payload columns the query restricts (by a condition or
 *       {@code partition_by}); inner-joined, so a seed cell without a matching row is dropped.
 *   <li>{@link #ENRICHMENT}: any other dataset whose payload the query returns; left-joined, so a seed
 *       cell without a matching row gets nulls.
 * </ul>
 */
@Internal
public enum DatasetRole {
  SEED,
  RESTRICTED,
  ENRICHMENT
}
