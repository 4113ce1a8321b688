package io.ktk.flink.state;

/**
 * Root of the exceptions this project throws on purpose. Each subclass names a category that
 * tells the caller what to do about it: fix the input ({@link KtkValidationException}), repair or
 * inspect the stored data ({@link CorruptDatasetException}), retry ({@code CommitConflictException})
 * or investigate before doing anything ({@code CommitStateUnknownException}).
 *
 * <p>Messages read "Cannot &lt;action&gt; &lt;object&gt;: &lt;reason with values&gt;".
 */
public abstract class KtkException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  protected KtkException(String message) {
    super(message);
  }

  protected KtkException(String message, Throwable cause) {
    super(message, cause);
  }
}
