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

  /**
   * Orders keys as S3 lists them: by their UTF-8 bytes, which is code point order. {@link
   * String#compareTo} differs for characters above U+FFFF, which it sees as surrogates.
   */
  static int compare(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int x = a.codePointAt(i);
      int y = b.codePointAt(j);
      if (x != y) {
        return Integer.compare(x, y);
      }
      i += Character.charCount(x);
      j += Character.charCount(y);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}
