package io.ktk.flink.benchmarks;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The {@code --name value} options of a benchmark's command line. */
public final class BenchOptions {
  private BenchOptions() {}

  /** The options by name (without the dashes); a name without a value, or a value without a name, is refused. */
  public static Map<String, String> parse(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("Cannot read the arguments: expected --name value pairs, got "
            + List.of(args));
      }
      options.put(args[i].substring(2), args[++i]);
    }
    return options;
  }
}
