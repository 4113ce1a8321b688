/**
 * The sink's writer role: {@link io.ktk.flink.sink.writer.KartothekWriter} routes each record to a
 * columnar buffer per partition, writes Parquet part files and emits a {@link
 * io.ktk.flink.sink.committable.FileBatch} per dataset at each checkpoint.
 */
package io.ktk.flink.sink.writer;
