/**
 * Column vectors: the values of one column for a run of rows, as primitive arrays where the type
 * allows ({@link io.ktk.flink.state.vector.LongVector}, {@link
 * io.ktk.flink.state.vector.DoubleVector}) and as typed Java values otherwise ({@link
 * io.ktk.flink.state.vector.ObjectVector}). Parquet row groups are read into them ({@code
 * ParquetRowsReader.readColumns}) and cube reads join and return them, so that no value is boxed
 * before someone asks for it.
 */
package io.ktk.flink.state.vector;
