package io.ktk.flink.ingest;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Reads one JSON value from a text, refusing what Jackson would otherwise read as something else:
 *
 * <ul>
 *   <li>text after the value ({@code {"a":1}{"a":2}}, {@code {"a":1} x}): Jackson stops after the
 *       first value and would drop the rest;
 *   <li>a field given twice in one object ({@code {"a":1,"a":2}}): Jackson keeps the last;
 *   <li>numbers with a fraction or exponent are kept as exact decimals ({@link
 *       DeserializationFeature#USE_BIG_DECIMAL_FOR_FLOATS} and a node factory that keeps their
 *       scale), so that a DECIMAL column gets every digit instead of a double's 17; FLOAT and
 *       DOUBLE columns round them once, from the decimal.
 * </ul>
 */
final class StrictJson {
  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .setNodeFactory(new RefusingDuplicates());

  private StrictJson() {}

  /**
   * The value of {@code text}.
   *
   * @param what what the text is, for messages: "the line", "the value"
   * @throws InvalidRecordException when the text is not exactly one JSON value
   */
  static JsonNode read(String text, String what) {
    try (JsonParser parser = JSON.createParser(text)) {
      JsonNode node;
      try {
        node = JSON.readTree(parser);
      } catch (DuplicateFieldException e) {
        throw new InvalidRecordException(what + " gives field '" + e.field + "' twice in one JSON object (first "
            + InvalidRecordException.shorten(e.first.toString()) + "); a JSON object gives each field once");
      } catch (JsonProcessingException e) {
        throw new InvalidRecordException(what + " is not JSON (" + e.getOriginalMessage() + ")");
      }
      if (node == null) {
        throw new InvalidRecordException(what + " is not JSON (it is empty)");
      }
      long end = parser.currentLocation().getCharOffset();
      JsonToken next;
      try {
        next = parser.nextToken();
      } catch (JsonProcessingException e) {
        next = JsonToken.NOT_AVAILABLE;
      }
      if (next != null) {
        throw new InvalidRecordException(what + " has text after its JSON value, from character " + (end + 1) + ": "
            + InvalidRecordException.shorten(text.substring((int) Math.min(end, text.length())).strip())
            + " (one JSON value, e.g. one object per line)");
      }
      return node;
    } catch (IOException e) {
      throw new UncheckedIOException(e); // reading a String does no I/O
    }
  }

  /** Thrown by {@link RefusingDuplicates}' objects when a field comes twice; caught in {@link #read}. */
  private static final class DuplicateFieldException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String field;
    private final transient JsonNode first;

    DuplicateFieldException(String field, JsonNode first) {
      super(null, null, false, false);
      this.field = field;
      this.first = first;
    }
  }

  /**
   * Makes objects that refuse a second value for a field: Jackson's tree reader puts each field
   * with {@code replace}, which returns the value it replaced. (Jackson's own {@code
   * FAIL_ON_READING_DUP_TREE_KEY} names the field only inside its message text.)
   */
  private static final class RefusingDuplicates extends JsonNodeFactory {
    private static final long serialVersionUID = 1L;

    RefusingDuplicates() {
      super(true); // exact decimals: 1.20 stays 1.20, 1E+2 is not rewritten
    }

    @Override
    public ObjectNode objectNode() {
      return new ObjectNode(this) {
        private static final long serialVersionUID = 1L;

        @Override
        public JsonNode replace(String field, JsonNode value) {
          JsonNode first = super.replace(field, value);
          if (first != null) {
            throw new DuplicateFieldException(field, first);
          }
          return null;
        }
      };
    }
  }
}
