/**
 * What the writers hand the committer: a {@link io.ktk.flink.sink.committable.FileBatch} of
 * Parquet files and index values per dataset and checkpoint, and its versioned serializer.
 */
package io.ktk.flink.sink.committable;
