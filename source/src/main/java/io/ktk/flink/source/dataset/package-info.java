/**
 * Reading one plain Kartothek dataset (not a cube): {@link io.ktk.flink.source.dataset.DatasetQuery}
 * (columns and conditions), {@link io.ktk.flink.source.dataset.DatasetScanPlan} (partitions and
 * files left after partition and index pruning, in a fixed order), {@link
 * io.ktk.flink.source.dataset.DatasetFileRows} (one file's passing rows, with row-group pruning),
 * and the Flink source's splits (one per file), enumerator and reader behind {@link
 * io.ktk.flink.source.KartothekDatasetSource}. Every row of every file counts: a plain dataset has
 * no dimension columns, so nothing is de-duplicated.
 */
package io.ktk.flink.source.dataset;
