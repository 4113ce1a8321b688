/**
 * The SQL table source {@code 'connector' = 'kartothek'} over a cube: {@link
 * io.ktk.flink.source.table.KartothekTableSourceFactory} checks a table against the cube, the scan
 * runs a {@link io.ktk.flink.source.KartothekSource} with the pushed-down projection, filters and
 * partitions as its cube query. Which filters are accepted and why: {@code docs/cube-query.md}, SQL.
 */
package io.ktk.flink.source.table;
