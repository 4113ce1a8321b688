package io.ktk.flink.cli;

import io.ktk.flink.cli.Comparison.Operator;
import io.ktk.flink.state.types.ArrowTypeNames;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The condition language of {@code --where}, for now: comparisons of a column with literals, joined
 * by {@code and}.
 *
 * <pre>
 * expression := comparison ( "and" comparison )*
 * comparison := column ( "==" | "!=" | "<" | "<=" | ">" | ">=" ) literal
 *             | column "in" "(" literal ( "," literal )* ")"
 * column     := name of letters, digits and _ (not starting with a digit), or `any name` (`` for `)
 * literal    := number (12, -1.5, 2e10) | nan | inf | -inf | true | false
 *             | 'text' or "text" (the quote doubled inside) | x'0aff' (bytes in hex)
 * </pre>
 *
 * <p>Keywords are case-insensitive. Each literal is typed by its column's type, and a literal that
 * does not fit fails before any file is read: integers for integer columns (in range, not negative
 * for unsigned ones), any number, nan or inf for floats, numbers for decimals, true/false for bools,
 * text for strings, text (UTF-8) or hex for binary, {@code 'YYYY-MM-DD'} for dates, {@code
 * 'YYYY-MM-DD[ |T]HH:MM[:SS[.f]]'} for timestamps (with a {@code Z} or offset for timestamps with a
 * zone), {@code 'HH:MM[:SS[.f]]'} for times. {@code null} is refused: a comparison with null is
 * unknown, never true. Examples: {@code day >= '2024-01-01' and c in (1, 2) and s != 'x'}.
 */
final class WhereExpression {
  private final String text;
  private final Schema schema;
  private final String dataset;
  private final List<Token> tokens;
  private int position;

  private enum Kind { WORD, NAME, NUMBER, STRING, HEX, OPERATOR, OPEN, CLOSE, COMMA, END }

  private record Token(Kind kind, String text, int at) {}

  private WhereExpression(String text, Schema schema, String dataset) {
    this.text = text;
    this.schema = schema;
    this.dataset = dataset;
    this.tokens = tokenize();
  }

  /**
   * Parses {@code text} against the columns of {@code schema} (the committed schema of {@code dataset}).
   *
   * @throws InvalidConditionException naming the column, the literal and what was expected
   */
  static List<Comparison> parse(String text, Schema schema, String dataset) {
    return new WhereExpression(text, schema, dataset).parse();
  }

  private List<Comparison> parse() {
    List<Comparison> comparisons = new ArrayList<>();
    if (peek().kind() == Kind.END) {
      throw fail("it is empty; write e.g. \"c == 1 and day >= '2024-01-01'\"");
    }
    while (true) {
      comparisons.add(comparison());
      Token next = next();
      if (next.kind() == Kind.END) {
        return comparisons;
      }
      if (!isWord(next, "and")) {
        throw fail("expected 'and' or the end at position " + (next.at() + 1) + ", found '" + next.text() + "'"
            + (isWord(next, "or") ? " ('or' is not supported yet)" : ""));
      }
    }
  }

  private Comparison comparison() {
    Token name = next();
    if (name.kind() != Kind.WORD && name.kind() != Kind.NAME) {
      throw fail("expected a column name at position " + (name.at() + 1) + ", found '" + name.text() + "'");
    }
    Field column = column(name.text());
    Token operator = next();
    if (isWord(operator, "in")) {
      expect(Kind.OPEN, "'(' after 'in'");
      List<Object> literals = new ArrayList<>();
      do {
        literals.add(literal(column, next()));
      } while (consumeIf(Kind.COMMA));
      expect(Kind.CLOSE, "',' or ')' in the list after 'in'");
      return new Comparison(column, Operator.IN, literals);
    }
    if (operator.kind() != Kind.OPERATOR) {
      throw fail("expected an operator (== != < <= > >= in) after column '" + column.getName() + "', found '"
          + operator.text() + "'");
    }
    Operator op = operator(operator.text());
    return new Comparison(column, op, List.of(literal(column, next())));
  }

  private Field column(String name) {
    for (Field field : schema.getFields()) {
      if (field.getName().equals(name)) {
        return field;
      }
    }
    throw fail("column '" + name + "' is not in dataset '" + dataset + "' (columns: "
        + schema.getFields().stream().map(Field::getName).collect(Collectors.joining(", ")) + ")");
  }

  private Operator operator(String symbol) {
    for (Operator operator : Operator.values()) {
      if (operator.symbol.equals(symbol)) {
        return operator;
      }
    }
    throw fail("unknown operator '" + symbol + "'" + (symbol.equals("=") ? "; use '==' for equality" : "")
        + " (operators: == != < <= > >= in)");
  }

  private Object literal(Field column, Token token) {
    if (token.kind() == Kind.WORD && token.text().equalsIgnoreCase("null")) {
      throw fail("column '" + column.getName() + "' is compared with null, which is unknown and never true;"
          + " conditions on nulls are not supported");
    }
    if (token.kind() == Kind.END || token.kind() == Kind.OPERATOR || token.kind() == Kind.OPEN
        || token.kind() == Kind.CLOSE || token.kind() == Kind.COMMA) {
      throw fail("expected a literal for column '" + column.getName() + "' at position " + (token.at() + 1)
          + ", found " + (token.kind() == Kind.END ? "the end" : "'" + token.text() + "'"));
    }
    ArrowType type = column.getType();
    try {
      Object value = typed(type, token);
      if (value != null) {
        return value;
      }
    } catch (DateTimeParseException | IllegalArgumentException e) {
      // reported below with what the type takes
    }
    throw fail("literal " + display(token) + " does not fit column '" + column.getName() + "' of type "
        + ArrowTypeNames.name(column) + "; " + expected(type));
  }

  /** The typed literal, or null when the token's kind does not fit the type. */
  private static Object typed(ArrowType type, Token token) {
    String text = token.text();
    switch (type.getTypeID()) {
      case Int -> {
        if (token.kind() != Kind.NUMBER || !text.matches("[+-]?[0-9]+")) {
          return null;
        }
        BigInteger value = new BigInteger(text);
        boolean signed = ((ArrowType.Int) type).getIsSigned();
        BigInteger min = signed ? BigInteger.valueOf(Long.MIN_VALUE) : BigInteger.ZERO;
        BigInteger max = signed ? BigInteger.valueOf(Long.MAX_VALUE) : BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
        return value.compareTo(min) >= 0 && value.compareTo(max) <= 0 ? value.longValue() : null;
      }
      case FloatingPoint -> {
        if (token.kind() == Kind.NUMBER) {
          return Double.parseDouble(text);
        }
        if (token.kind() == Kind.WORD) {
          return switch (text.toLowerCase(Locale.ROOT)) {
            case "nan" -> Double.NaN;
            case "inf", "+inf", "infinity" -> Double.POSITIVE_INFINITY;
            case "-inf", "-infinity" -> Double.NEGATIVE_INFINITY;
            default -> null;
          };
        }
        return null;
      }
      case Decimal -> {
        return token.kind() == Kind.NUMBER ? new BigDecimal(text) : null;
      }
      case Bool -> {
        if (token.kind() != Kind.WORD) {
          return null;
        }
        return text.equalsIgnoreCase("true") ? Boolean.TRUE : text.equalsIgnoreCase("false") ? Boolean.FALSE : null;
      }
      case Utf8, LargeUtf8 -> {
        return token.kind() == Kind.STRING ? text : null;
      }
      case Binary, LargeBinary, FixedSizeBinary -> {
        if (token.kind() == Kind.HEX) {
          return HexFormat.of().parseHex(text);
        }
        return token.kind() == Kind.STRING ? text.getBytes(StandardCharsets.UTF_8) : null;
      }
      case Date -> {
        return token.kind() == Kind.STRING ? LocalDate.parse(text) : null;
      }
      case Timestamp -> {
        if (token.kind() != Kind.STRING) {
          return null;
        }
        String iso = text.length() == 10 ? text + "T00:00:00" : text.replaceFirst(" ", "T");
        if (((ArrowType.Timestamp) type).getTimezone() == null) {
          return LocalDateTime.parse(iso);
        }
        return OffsetDateTime.parse(iso.endsWith("z") ? iso.substring(0, iso.length() - 1) + "Z" : iso).toInstant();
      }
      case Time -> {
        return token.kind() == Kind.STRING ? LocalTime.parse(text) : null;
      }
      default -> {
        return null;
      }
    }
  }

  private static String display(Token token) {
    return switch (token.kind()) {
      case STRING -> "'" + token.text().replace("'", "''") + "'";
      case HEX -> "x'" + token.text() + "'";
      default -> token.text();
    };
  }

  private static String expected(ArrowType type) {
    return switch (type.getTypeID()) {
      case Int -> ((ArrowType.Int) type).getIsSigned()
          ? "use a whole number from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE
          : "use a whole number from 0 to 18446744073709551615";
      case FloatingPoint -> "use a number, nan, inf or -inf";
      case Decimal -> "use a number";
      case Bool -> "use true or false";
      case Utf8, LargeUtf8 -> "use text in quotes, e.g. 'abc'";
      case Binary, LargeBinary, FixedSizeBinary -> "use text in quotes (its UTF-8 bytes) or hex bytes, e.g. x'0aff'";
      case Date -> "use a date in quotes, e.g. '2024-01-31'";
      case Timestamp -> ((ArrowType.Timestamp) type).getTimezone() == null
          ? "use a timestamp in quotes, e.g. '2024-01-31 12:00:00' or '2024-01-31T12:00:00.5'"
          : "use a timestamp with a zone offset in quotes, e.g. '2024-01-31T12:00:00Z' or '2024-01-31 12:00:00+01:00'";
      case Time -> "use a time in quotes, e.g. '12:30:00'";
      default -> "conditions support columns of primitive types only";
    };
  }

  private Token next() {
    return tokens.get(Math.min(position++, tokens.size() - 1));
  }

  private Token peek() {
    return tokens.get(Math.min(position, tokens.size() - 1));
  }

  private boolean consumeIf(Kind kind) {
    if (peek().kind() == kind) {
      position++;
      return true;
    }
    return false;
  }

  private void expect(Kind kind, String what) {
    Token token = next();
    if (token.kind() != kind) {
      throw fail("expected " + what + " at position " + (token.at() + 1) + ", found "
          + (token.kind() == Kind.END ? "the end" : "'" + token.text() + "'"));
    }
  }

  private static boolean isWord(Token token, String word) {
    return token.kind() == Kind.WORD && token.text().equalsIgnoreCase(word);
  }

  private List<Token> tokenize() {
    List<Token> found = new ArrayList<>();
    int i = 0;
    int n = text.length();
    while (i < n) {
      char c = text.charAt(i);
      int start = i;
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '(' || c == ')' || c == ',') {
        found.add(new Token(c == '(' ? Kind.OPEN : c == ')' ? Kind.CLOSE : Kind.COMMA, String.valueOf(c), start));
        i++;
      } else if (c == '=' || c == '!' || c == '<' || c == '>') {
        i++;
        while (i < n && "=!<>".indexOf(text.charAt(i)) >= 0) {
          i++;
        }
        found.add(new Token(Kind.OPERATOR, text.substring(start, i), start));
      } else if (c == '\'' || c == '"') {
        i = quoted(found, c, Kind.STRING, start, start + 1);
      } else if (c == '`') {
        i = quoted(found, c, Kind.NAME, start, start + 1);
      } else if ((c == 'x' || c == 'X') && i + 1 < n && text.charAt(i + 1) == '\'') {
        i = quoted(found, '\'', Kind.HEX, start, start + 2);
      } else if (Character.isDigit(c) || c == '.'
          || ((c == '-' || c == '+') && i + 1 < n && (Character.isDigit(text.charAt(i + 1)) || text.charAt(i + 1) == '.'))) {
        i++;
        while (i < n && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '.'
            || ((text.charAt(i) == '-' || text.charAt(i) == '+') && (text.charAt(i - 1) == 'e' || text.charAt(i - 1) == 'E')))) {
          i++;
        }
        String number = text.substring(start, i);
        if (!number.matches("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?")) {
          throw fail("'" + number + "' at position " + (start + 1) + " is not a number");
        }
        found.add(new Token(Kind.NUMBER, number, start));
      } else if (Character.isLetter(c) || c == '_' || ((c == '-' || c == '+') && i + 1 < n && Character.isLetter(text.charAt(i + 1)))) {
        i++;
        while (i < n && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_')) {
          i++;
        }
        found.add(new Token(Kind.WORD, text.substring(start, i), start));
      } else {
        throw fail("unexpected character '" + c + "' at position " + (start + 1));
      }
    }
    found.add(new Token(Kind.END, "", n));
    return found;
  }

  /** Reads a literal quoted by {@code quote} (doubled inside to stand for itself) from {@code from}. */
  private int quoted(List<Token> found, char quote, Kind kind, int start, int from) {
    StringBuilder value = new StringBuilder();
    int i = from;
    while (true) {
      if (i >= text.length()) {
        throw fail("the quote " + quote + " at position " + (start + 1) + " is not closed");
      }
      char c = text.charAt(i);
      if (c == quote) {
        if (i + 1 < text.length() && text.charAt(i + 1) == quote) {
          value.append(quote);
          i += 2;
          continue;
        }
        found.add(new Token(kind, value.toString(), start));
        return i + 1;
      }
      value.append(c);
      i++;
    }
  }

  private InvalidConditionException fail(String reason) {
    return new InvalidConditionException("Cannot use --where \"" + text + "\" on dataset '" + dataset + "': " + reason);
  }
}
