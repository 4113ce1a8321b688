package io.ktk.flink.sink.config;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/** The codec of the Parquet pages the sink writes. */
@PublicEvolving
public enum Compression {
  /** Snappy, as pyarrow and plateau write by default. */
  SNAPPY(CompressionCodecName.SNAPPY),
  /** ZSTD at level 3, as Kartothek cubes are usually written: smaller files, slower writes. */
  ZSTD(CompressionCodecName.ZSTD);

  private final CompressionCodecName codec;

  Compression(CompressionCodecName codec) {
    this.codec = codec;
  }

  public CompressionCodecName codec() {
    return codec;
  }
}
