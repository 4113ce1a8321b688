package io.ktk.flink.state.metadata;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Percent-encoding of label segments and key components.
 *
 * <p>Keeps only the RFC 3986 unreserved characters {@code A-Z a-z 0-9 - _ . ~}; every other UTF-8
 * byte becomes {@code %XX} with uppercase hex. This is what plateau's {@code quote} does, except
 * that plateau keeps {@code /} while we encode it as {@code %2F} (plateau's {@code unquote} decodes
 * it fine, and a raw {@code /} would add a level to the partition path). Example: {@code "a b/ü"}
 * becomes {@code a%20b%2F%C3%BC}.
 *
 * <p>Decoding accepts upper- and lowercase hex and raw characters, as plateau's {@code unquote}.
 */
final class PercentEncoding {
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private PercentEncoding() {}

  /** Encodes a string's UTF-8 bytes; throws IllegalArgumentException for unpaired surrogates. */
  static String quote(String value) {
    return quote(utf8(value));
  }

  static String quote(byte[] bytes) {
    StringBuilder out = new StringBuilder(bytes.length + 8);
    for (byte b : bytes) {
      int c = b & 0xFF;
      if (isUnreserved(c)) {
        out.append((char) c);
      } else {
        out.append('%').append(HEX[c >>> 4]).append(HEX[c & 0xF]);
      }
    }
    return out.toString();
  }

  /**
   * Decodes to bytes.
   *
   * @throws IllegalArgumentException when a {@code %} is not followed by two hex digits
   */
  static byte[] unquoteBytes(String segment) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(segment.length());
    int i = 0;
    while (i < segment.length()) {
      char c = segment.charAt(i);
      if (c == '%') {
        if (i + 2 >= segment.length()
            || !isAsciiHex(segment.charAt(i + 1))
            || !isAsciiHex(segment.charAt(i + 2))) {
          throw new IllegalArgumentException("'%' at position " + i + " is not followed by two hex digits");
        }
        out.write(Character.digit(segment.charAt(i + 1), 16) << 4 | Character.digit(segment.charAt(i + 2), 16));
        i += 3;
      } else {
        int cp = segment.codePointAt(i);
        byte[] bytes = utf8(new String(Character.toChars(cp)));
        out.write(bytes, 0, bytes.length);
        i += Character.charCount(cp);
      }
    }
    return out.toByteArray();
  }

  /** Decodes to a string; throws IllegalArgumentException for bad escapes or bytes that are not UTF-8. */
  static String unquote(String segment) {
    byte[] bytes = unquoteBytes(segment);
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("the decoded bytes are not valid UTF-8");
    }
  }

  /** Strict UTF-8: a string with an unpaired surrogate has no UTF-8 form and cannot be encoded. */
  static byte[] utf8(String value) {
    try {
      ByteBuffer buffer =
          StandardCharsets.UTF_8
              .newEncoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .encode(CharBuffer.wrap(value));
      byte[] bytes = new byte[buffer.remaining()];
      buffer.get(bytes);
      return bytes;
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("the string contains an unpaired surrogate and has no UTF-8 form");
    }
  }

  static boolean isValidUtf8(byte[] bytes) {
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  private static boolean isAsciiHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  private static boolean isUnreserved(int c) {
    return (c >= 'A' && c <= 'Z')
        || (c >= 'a' && c <= 'z')
        || (c >= '0' && c <= '9')
        || c == '-'
        || c == '_'
        || c == '.'
        || c == '~';
  }
}
