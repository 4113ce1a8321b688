package io.ktk.flink.state.store;

import java.net.URI;
import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * The checked options of an S3 store (see {@link StoreOptions}), and the S3 client they make.
 * {@code endpoint}, {@code region} and the keys are {@code null} when not given.
 *
 * <p>The client connects within {@value #CONNECT_TIMEOUT_SECONDS} s, waits at most {@value
 * #SOCKET_TIMEOUT_SECONDS} s for a byte, and makes {@value #MAX_ATTEMPTS} attempts, so that an
 * unreachable endpoint fails within seconds rather than minutes.
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
  static final int CONNECT_TIMEOUT_SECONDS = 3;
  static final int SOCKET_TIMEOUT_SECONDS = 30;
  static final int MAX_ATTEMPTS = 3;

  /** Anonymous, static keys, or the SDK's default chain (environment, profile, web identity, instance). */
  AwsCredentialsProvider credentialsProvider() {
    if (anonymous) {
      return AnonymousCredentialsProvider.create();
    }
    if (accessKeyId == null) {
      return DefaultCredentialsProvider.builder().build();
    }
    return StaticCredentialsProvider.create(
        sessionToken == null
            ? AwsBasicCredentials.create(accessKeyId, secretAccessKey)
            : AwsSessionCredentials.create(accessKeyId, secretAccessKey, sessionToken));
  }

  /** A client of its own, with its own HTTP connection pool; closing the client closes the pool. */
  S3Client newClient(String url, AwsCredentialsProvider credentials) {
    S3ClientBuilder builder =
        S3Client.builder()
            .region(resolveRegion(url))
            .credentialsProvider(credentials)
            .forcePathStyle(pathStyle)
            .httpClientBuilder(
                Apache5HttpClient.builder()
                    .connectionTimeout(Duration.ofSeconds(CONNECT_TIMEOUT_SECONDS))
                    .socketTimeout(Duration.ofSeconds(SOCKET_TIMEOUT_SECONDS)))
            // The SDK retries I/O errors, 5xx and throttling only: never 409 or 412.
            .overrideConfiguration(c -> c.retryStrategy(r -> r.maxAttempts(MAX_ATTEMPTS)));
    if (endpoint != null) {
      builder.endpointOverride(endpoint);
    }
    return builder.build();
  }

  private Region resolveRegion(String url) {
    if (region != null) {
      return Region.of(region);
    }
    try {
      return DefaultAwsRegionProviderChain.builder().build().getRegion();
    } catch (SdkClientException e) {
      if (endpoint != null) {
        return Region.US_EAST_1; // what S3-compatible services expect in signatures unless told otherwise
      }
      throw new InvalidStoreUrlException("Cannot open store '" + url + "': no AWS region found ("
          + e.getMessage() + "); set the option " + StoreOptions.REGION + " or AWS_REGION", e);
    }
  }

  /** Leaves the secrets out. */
  @Override
  public String toString() {
    return "S3Settings{endpoint=" + endpoint + ", region=" + region + ", pathStyle=" + pathStyle
        + ", staticKeys=" + (accessKeyId != null) + ", anonymous=" + anonymous
        + ", multipartThreshold=" + multipartThreshold + ", partSize=" + partSize
        + ", listPageSize=" + listPageSize + "}";
  }
}
