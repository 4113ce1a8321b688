package io.ktk.flink.source.reader;

import io.ktk.flink.source.split.CubeSplit;

/** A split being read: the split and how many of its rows were emitted (mutable, reader thread only). */
final class CubeSplitState {
  private final CubeSplit split;
  private long emittedRows;

  CubeSplitState(CubeSplit split) {
    this.split = split;
    this.emittedRows = split.emittedRows();
  }

  void emitted() {
    emittedRows++;
  }

  CubeSplit toSplit() {
    return split.withEmittedRows(emittedRows);
  }
}
