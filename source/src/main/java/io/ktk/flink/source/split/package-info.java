/**
 * Splits of the Kartothek source: one {@link io.ktk.flink.source.split.CubeSplit} per query group,
 * and its versioned serializer.
 */
package io.ktk.flink.source.split;
