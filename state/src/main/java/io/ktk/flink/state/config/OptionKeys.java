package io.ktk.flink.state.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.flink.annotation.Internal;

/**
 * Checks option keys against the keys a component accepts, so that a misspelt key fails where it
 * is written (a builder's {@code build()}, SQL planning, a command line) instead of being ignored or
 * failing later in a task. An unknown key is reported with the closest accepted one:
 *
 * <pre>
 * Cannot open store 's3://bucket/data': unknown option 'regoin' (did you mean 'region'?); ...
 * </pre>
 *
 * <p>"Closest" is the optimal-string-alignment distance (insertions, deletions, substitutions and
 * swaps of neighbours cost 1), accepted when it is small against the key's length, so that a typo
 * gets a suggestion and an unrelated key does not.
 */
@Internal
public final class OptionKeys {
  private OptionKeys() {}

  /**
   * Throws {@link UnknownOptionException} for the first unknown key of {@code given} (in sorted
   * order), naming the closest accepted key and listing all of them.
   *
   * @param action what the options are for, as "Cannot &lt;action&gt;" reads, e.g. {@code open store 's3://b'}
   */
  public static void check(String action, Collection<String> given, Collection<String> accepted) {
    SortedSet<String> unknown = new TreeSet<>(given);
    unknown.removeAll(accepted);
    if (unknown.isEmpty()) {
      return;
    }
    String key = unknown.first();
    String others = unknown.size() > 1 ? " (and " + unknown.tailSet(key + "\0") + ")" : "";
    String known = accepted.isEmpty() ? "it takes no options" : "accepted options are " + new TreeSet<>(accepted);
    throw new UnknownOptionException(key, closest(key, accepted).orElse(null),
        "Cannot " + action + ": unknown option '" + key + "'" + closest(key, accepted)
            .map(c -> " (did you mean '" + c + "'?)").orElse("") + others + "; " + known);
  }

  /** The accepted key nearest to {@code key}, when it is near enough to be a likely typo of it. */
  public static Optional<String> closest(String key, Collection<String> accepted) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : new TreeSet<>(accepted)) {
      int distance = distance(key.toLowerCase(java.util.Locale.ROOT), candidate.toLowerCase(java.util.Locale.ROOT));
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    int allowed = Math.max(1, Math.min(3, key.length() / 3));
    return best != null && bestDistance <= allowed ? Optional.of(best) : Optional.empty();
  }

  /**
   * The names of a list option such as {@code 'partition-columns'}: Flink separates list values
   * with {@code ;}, people write column lists with {@code ,}; both are taken, blanks around names dropped.
   */
  public static List<String> names(List<String> values) {
    List<String> names = new ArrayList<>();
    for (String value : values) {
      for (String name : value.split(",")) {
        if (!name.isBlank()) {
          names.add(name.strip());
        }
      }
    }
    return List.copyOf(names);
  }

  /** Optimal string alignment distance: Levenshtein plus swaps of two neighbouring characters. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
