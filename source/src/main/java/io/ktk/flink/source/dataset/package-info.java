/**
 * What a user asks of one plain Kartothek dataset (not a cube): {@link
 * io.ktk.flink.source.dataset.DatasetQuery}, columns and conditions. A plain dataset is read by the
 * cube query stack as a cube of that one dataset ({@code io.ktk.flink.source.planner.PlainDatasetSnapshot}).
 */
package io.ktk.flink.source.dataset;
