/**
 * The sink's committer role: {@link io.ktk.flink.sink.committer.FileBatchAggregator} gathers one
 * checkpoint's batches at parallelism 1, {@link io.ktk.flink.sink.committer.KartothekCommitter}
 * commits them as one version of each dataset and publishes the plateau view.
 */
package io.ktk.flink.sink.committer;
