package io.ktk.flink.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Durations on the command line: a whole number and a unit, {@code 200ms}, {@code 45s}, {@code 30m}, {@code 12h},
 * {@code 7d}, or ISO-8601 ({@code PT12H}, {@code P7D}, {@code P1DT6H}). Negative durations are refused.
 */
final class DurationConverter implements ITypeConverter<Duration> {
  private static final Pattern SHORT = Pattern.compile("([0-9]+)\\s*(ms|[smhd])");

  @Override
  public Duration convert(String value) {
    String text = value.trim().toLowerCase(Locale.ROOT);
    Matcher matcher = SHORT.matcher(text);
    Duration duration;
    try {
      if (matcher.matches()) {
        long amount = Long.parseLong(matcher.group(1));
        duration = switch (matcher.group(2)) {
          case "ms" -> Duration.ofMillis(amount);
          case "s" -> Duration.ofSeconds(amount);
          case "m" -> Duration.ofMinutes(amount);
          case "h" -> Duration.ofHours(amount);
          default -> Duration.ofDays(amount);
        };
      } else {
        duration = Duration.parse(value.trim());
      }
    } catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
      throw new TypeConversionException("'" + value + "' is not a duration; use e.g. 200ms, 30s, 30m, 12h, 7d or ISO-8601 PT12H");
    }
    if (duration.isNegative()) {
      throw new TypeConversionException("'" + value + "' is negative; a duration must be 0 or more");
    }
    return duration;
  }

  /** {@code 1d}, {@code 12h}, {@code 30m}, {@code 45s} when whole, else ISO-8601. */
  static String format(Duration duration) {
    long seconds = duration.getSeconds();
    if (duration.getNano() != 0 || seconds == 0) {
      return duration.toString();
    }
    if (seconds % 86_400 == 0) {
      return seconds / 86_400 + "d";
    }
    if (seconds % 3_600 == 0) {
      return seconds / 3_600 + "h";
    }
    return seconds % 60 == 0 ? seconds / 60 + "m" : seconds + "s";
  }
}
