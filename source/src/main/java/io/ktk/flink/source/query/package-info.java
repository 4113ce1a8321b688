/**
 * The cube query model: {@link io.ktk.flink.source.query.CubeQuery} (conditions, columns,
 * dimensionality, {@code partition_by}, datasets), its {@link io.ktk.flink.source.query.Condition}s
 * with untyped {@link io.ktk.flink.source.query.Literal}s, the text form read by {@link
 * io.ktk.flink.source.query.ConditionParser}, and {@link io.ktk.flink.source.query.TypedCondition},
 * a condition checked against its column. Checking a query against a cube is the planner's first
 * step ({@code io.ktk.flink.source.planner}); every error it finds is an {@link
 * io.ktk.flink.source.query.InvalidQueryException} raised before any data file is read.
 */
package io.ktk.flink.source.query;
