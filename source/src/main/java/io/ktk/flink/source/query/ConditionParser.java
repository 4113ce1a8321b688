package io.ktk.flink.source.query;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Reads the text form of conditions: comparisons, lists and intervals joined by {@code and}.
 *
 * <pre>
 * expression := condition ( "and" condition )*
 * condition  := column op literal                      x == 1, s != 'a'
 *             | literal op column                      1 &lt; x  (read as x &gt; 1)
 *             | column "in" "(" literal ( "," literal )* ")"
 *             | literal op column op literal           0 &lt;= z &lt; 10, 10 &gt; z &gt;= 0
 * op         := "==" | "!=" | "&lt;" | "&lt;=" | "&gt;" | "&gt;="
 * column     := letters, digits, _ (not starting with a digit, not a keyword), or `any name` (`` for `)
 * literal    := number (12, -1.5, 2e10) | 'text' or "text" (the quote doubled inside)
 *             | x'0aff' (bytes) | true | false | nan | inf | -inf | null
 * </pre>
 *
 * <p>Keywords ({@code and in true false nan inf null}) are case-insensitive. Literals stay
 * untyped ({@link Literal}): {@code '2024-01-01'} is a date for a date column and text for a
 * string column, decided when the query is checked against the cube. {@code null} parses, so that
 * the check can refuse it with the column's name and type. Syntax errors fail with {@link
 * InvalidQueryException} naming the position (1-based) and what was expected.
 */
@PublicEvolving
public final class ConditionParser {
  private static final Set<String> KEYWORDS = Set.of("and", "in", "true", "false", "nan", "inf", "null", "or", "not");
  private static final Set<String> LITERAL_WORDS = Set.of("true", "false", "nan", "inf", "-inf", "+inf", "null");
  private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern NUMBER = Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");

  private final String text;
  private final List<Token> tokens;
  private int position;

  private enum Kind { WORD, NAME, NUMBER, STRING, HEX, OPERATOR, OPEN, CLOSE, COMMA, END }

  private record Token(Kind kind, String text, int at) {
    String shown() {
      return kind == Kind.END ? "the end" : "'" + text + "'";
    }
  }

  private ConditionParser(String text) {
    this.text = text;
    this.tokens = tokenize();
  }

  /**
   * Parses {@code text}; an empty or blank text means no conditions.
   *
   * @throws InvalidQueryException for text that does not follow the grammar
   */
  public static List<Condition> parse(String text) {
    if (text == null || text.isBlank()) {
      return List.of();
    }
    return new ConditionParser(text).expression();
  }

  /** A column name as the text form writes it: plain, or in backticks when it needs them. */
  public static String quoteColumn(String column) {
    if (PLAIN_NAME.matcher(column).matches() && !KEYWORDS.contains(column.toLowerCase(Locale.ROOT))) {
      return column;
    }
    return "`" + column.replace("`", "``") + "`";
  }

  private List<Condition> expression() {
    List<Condition> conditions = new ArrayList<>();
    while (true) {
      conditions.add(condition());
      Token next = next();
      if (next.kind() == Kind.END) {
        return conditions;
      }
      if (!isWord(next, "and")) {
        throw fail("expected 'and' or the end at position " + (next.at() + 1) + ", found " + next.shown()
            + (isWord(next, "or") ? " ('or' is not supported: conditions are joined by 'and')" : ""));
      }
    }
  }

  private Condition condition() {
    Token first = next();
    if (isColumn(first)) {
      String column = first.text();
      Token operator = next();
      if (isWord(operator, "in")) {
        return new Condition.In(column, list(column));
      }
      ComparisonOperator op = comparisonOperator(operator, "after column '" + column + "'");
      return new Condition.Comparison(column, op, literal(next(), "after '" + column + " " + op.symbol() + "'"));
    }
    if (!isLiteral(first)) {
      throw fail("expected a column name or a literal at position " + (first.at() + 1) + ", found " + first.shown());
    }
    Literal lower = literal(first, "");
    ComparisonOperator op1 = comparisonOperator(next(), "after literal " + lower.text());
    Token columnToken = next();
    if (!isColumn(columnToken)) {
      throw fail("expected a column name after '" + lower.text() + " " + op1.symbol() + "' at position "
          + (columnToken.at() + 1) + ", found " + columnToken.shown());
    }
    String column = columnToken.text();
    if (peek().kind() != Kind.OPERATOR) {
      if (op1 == ComparisonOperator.EQ || op1 == ComparisonOperator.NE) {
        return new Condition.Comparison(column, op1, lower);
      }
      return new Condition.Comparison(column, op1.swapped(), lower);
    }
    Token secondToken = next();
    ComparisonOperator op2 = comparisonOperator(secondToken, "after '" + lower.text() + " " + op1.symbol() + " " + column + "'");
    Literal upper = literal(next(), "after '" + column + " " + op2.symbol() + "'");
    boolean ascending = (op1 == ComparisonOperator.LT || op1 == ComparisonOperator.LE) && (op2 == ComparisonOperator.LT || op2 == ComparisonOperator.LE);
    boolean descending = (op1 == ComparisonOperator.GT || op1 == ComparisonOperator.GE) && (op2 == ComparisonOperator.GT || op2 == ComparisonOperator.GE);
    if (ascending) {
      return new Condition.Interval(column, lower, op1 == ComparisonOperator.LE, upper, op2 == ComparisonOperator.LE);
    }
    if (descending) {
      return new Condition.Interval(column, upper, op2 == ComparisonOperator.GE, lower, op1 == ComparisonOperator.GE);
    }
    throw fail("interval '" + lower.text() + " " + op1.symbol() + " " + column + " " + op2.symbol() + " "
        + upper.text() + "' at position " + (first.at() + 1) + " must use < or <= on both sides (or > or >= on both)");
  }

  private List<Literal> list(String column) {
    expect(Kind.OPEN, "'(' after '" + column + " in'");
    List<Literal> literals = new ArrayList<>();
    do {
      literals.add(literal(next(), "in the list of '" + column + " in'"));
    } while (consumeIf(Kind.COMMA));
    expect(Kind.CLOSE, "',' or ')' in the list of '" + column + " in'");
    return literals;
  }

  private ComparisonOperator comparisonOperator(Token token, String where) {
    if (token.kind() != Kind.OPERATOR) {
      throw fail("expected an operator (== != < <= > >= in) " + where + " at position " + (token.at() + 1)
          + ", found " + token.shown());
    }
    ComparisonOperator op = ComparisonOperator.ofSymbol(token.text());
    if (op == null) {
      throw fail("unknown operator '" + token.text() + "' at position " + (token.at() + 1)
          + (token.text().equals("=") ? "; use '==' for equality" : "") + " (operators: == != < <= > >= in)");
    }
    return op;
  }

  private Literal literal(Token token, String where) {
    if (!isLiteral(token)) {
      throw fail("expected a literal" + (where.isEmpty() ? "" : " " + where) + " at position " + (token.at() + 1)
          + ", found " + token.shown()
          + (token.kind() == Kind.WORD ? " (text needs quotes: '" + token.text() + "')" : ""));
    }
    return switch (token.kind()) {
      case NUMBER -> new Literal.Number(token.text());
      case STRING -> new Literal.Text(token.text());
      case HEX -> {
        try {
          yield new Literal.Bytes(HexFormat.of().parseHex(token.text()));
        } catch (IllegalArgumentException e) {
          throw fail("x'" + token.text() + "' at position " + (token.at() + 1) + " is not hex bytes (two hex digits each)");
        }
      }
      default -> {
        String word = token.text().toLowerCase(Locale.ROOT);
        if (word.equals("null")) {
          yield Literal.Null.INSTANCE;
        }
        yield new Literal.Word(word.equals("+inf") ? "inf" : word);
      }
    };
  }

  private static boolean isColumn(Token token) {
    return token.kind() == Kind.NAME
        || (token.kind() == Kind.WORD && PLAIN_NAME.matcher(token.text()).matches()
            && !KEYWORDS.contains(token.text().toLowerCase(Locale.ROOT)));
  }

  private static boolean isLiteral(Token token) {
    return switch (token.kind()) {
      case NUMBER, STRING, HEX -> true;
      case WORD -> LITERAL_WORDS.contains(token.text().toLowerCase(Locale.ROOT));
      default -> false;
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
      throw fail("expected " + what + " at position " + (token.at() + 1) + ", found " + token.shown());
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
      } else if (Character.isDigit(c) || c == '.' || ((c == '-' || c == '+') && i + 1 < n
          && (Character.isDigit(text.charAt(i + 1)) || text.charAt(i + 1) == '.'))) {
        i++;
        while (i < n && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '.'
            || ((text.charAt(i) == '-' || text.charAt(i) == '+')
                && (text.charAt(i - 1) == 'e' || text.charAt(i - 1) == 'E')))) {
          i++;
        }
        String number = text.substring(start, i);
        if (!NUMBER.matcher(number).matches()) {
          throw fail("'" + number + "' at position " + (start + 1) + " is not a number");
        }
        found.add(new Token(Kind.NUMBER, number, start));
      } else if (Character.isLetter(c) || c == '_'
          || ((c == '-' || c == '+') && i + 1 < n && Character.isLetter(text.charAt(i + 1)))) {
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

  /** Reads a token quoted by {@code quote} (doubled inside to stand for itself) from {@code from}. */
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

  private InvalidQueryException fail(String reason) {
    return new InvalidQueryException("Cannot parse condition \"" + text + "\": " + reason);
  }
}
