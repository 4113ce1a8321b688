/**
 * The in-process cube query engine, free of Flink: {@link io.ktk.flink.source.engine.PartitionJoin}
 * reads the datasets of one partition of a query group ({@link
 * io.ktk.flink.source.engine.DatasetCells}, pruning row groups with {@link
 * io.ktk.flink.source.engine.RowGroupPruning}), joins them on row keys ({@link
 * io.ktk.flink.source.engine.CellKeys}) and returns a {@link io.ktk.flink.source.engine.ResultBatch};
 * {@link io.ktk.flink.source.engine.CubeReader} runs a whole query plan on a few threads. The Flink
 * split reader ({@code io.ktk.flink.source.reader}) and the {@code ktk} tool both run it.
 */
package io.ktk.flink.source.engine;
