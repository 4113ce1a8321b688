/**
 * The continuous source of a dataset with a primary key as an upsert changelog ({@code docs/cdc.md}):
 * what a discovery serves besides the engine's merged rows, the {@code -D} rows of keys that the
 * added files delete or whose new row fails the conditions ({@link
 * io.ktk.flink.source.changelog.DeletedKeys}). The Flink reader ({@code io.ktk.flink.source.reader})
 * emits both with their row kinds.
 */
package io.ktk.flink.source.changelog;
