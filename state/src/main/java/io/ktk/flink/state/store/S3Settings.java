package io.ktk.flink.state.store;

import java.net.URI;

/**
 * The checked options of an S3 store (see {@link StoreOptions}). {@code endpoint}, {@code region}
 * and the keys are {@code null} when not given.
 */
record S3Settings(
    URI endpoint,
    String region,
    boolean pathStyle,
    String accessKeyId,
    String secretAccessKey,
    String sessionToken,
    boolean anonymous,
    int multipartThreshold,
    int partSize,
    int listPageSize) {

  /** Leaves the secrets out. */
  @Override
  public String toString() {
    return "S3Settings{endpoint=" + endpoint + ", region=" + region + ", pathStyle=" + pathStyle
        + ", staticKeys=" + (accessKeyId != null) + ", anonymous=" + anonymous
        + ", multipartThreshold=" + multipartThreshold + ", partSize=" + partSize
        + ", listPageSize=" + listPageSize + "}";
  }
}
