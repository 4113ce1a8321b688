package io.ktk.flink.state.store;

/** The rules every object key follows, whatever the store. */
final class ObjectKeys {
  private ObjectKeys() {}

  /** Refuses keys that are empty, absolute, or contain empty, {@code .} or {@code ..} segments. */
  static void checkKey(String key) {
    if (key == null || key.isEmpty()) {
      throw new IllegalArgumentException("Cannot use an empty object key");
    }
    if (key.startsWith("/") || key.endsWith("/")) {
      throw new IllegalArgumentException("Cannot use object key '" + key + "': it starts or ends with '/'");
    }
    for (String segment : key.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        throw new IllegalArgumentException(
            "Cannot use object key '" + key + "': segment '" + segment + "' is not allowed");
      }
    }
  }
}
