package io.ktk.flink.sink.config;

import org.apache.flink.annotation.PublicEvolving;

/** How a checkpoint's files change the dataset. */
@PublicEvolving
public enum WriteMode {
  /** The files are added; concurrent appends from other jobs commute. */
  APPEND,
  /**
   * The physical partitions a checkpoint writes lose every file they held before (Kartothek's
   * {@code delete_scope}, per checkpoint): after the commit of checkpoint {@code n} a partition
   * holds exactly the rows that checkpoint {@code n} wrote to it. Partitions the checkpoint does
   * not write keep their files. Meant for bounded jobs (one commit at the end) or for streams that
   * rewrite whole partitions between checkpoints.
   */
  REPLACE_PARTITIONS
}
