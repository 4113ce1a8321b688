package io.ktk.flink.state.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Many pyarrow checks in one Python run (start-up costs about a second each): the script calls
 * {@code check(name, fn)} for each, where {@code fn} returns {@code (ok, detail)}, and tests
 * assert each named result. The prelude offers {@code same(a, b)}, an equality of Python values
 * that treats NaN as equal to NaN and tells {@code -0.0} from {@code 0.0} and {@code True} from 1.
 */
public final class PyChecks {
  private static final String PRELUDE =
      """
      import json, math, sys, traceback
      RESULTS = {}
      def same(a, b):
          if isinstance(a, float) and isinstance(b, float):
              if math.isnan(a) or math.isnan(b):
                  return math.isnan(a) and math.isnan(b)
              return a == b and math.copysign(1, a) == math.copysign(1, b)
          if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
              return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
          if isinstance(a, dict) and isinstance(b, dict):
              return list(a.keys()) == list(b.keys()) and all(same(a[k], b[k]) for k in a)
          return type(a) == type(b) and a == b
      def check(name, fn):
          try:
              ok, detail = fn()
          except Exception:
              ok, detail = False, traceback.format_exc()
          RESULTS[name] = {"ok": bool(ok), "detail": str(detail)}
      """;

  private final Map<String, Map<String, Object>> results;

  private PyChecks(Map<String, Map<String, Object>> results) {
    this.results = results;
  }

  /** Runs the prelude, then {@code script}, then prints the results. */
  public static PyChecks run(String script, String... args) {
    String output = Python.run(PRELUDE + "\n" + script + "\nprint(json.dumps(RESULTS))\n", args);
    String last = output.strip().lines().reduce((a, b) -> b).orElse("{}");
    try {
      return new PyChecks(new ObjectMapper().readValue(last, new TypeReference<>() {}));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot parse the check results: " + output, e);
    }
  }

  /** Asserts that the check ran and passed; its detail is the failure message. */
  public void assertOk(String name) {
    assertThat(results).as("checks run").containsKey(name);
    Map<String, Object> result = results.get(name);
    assertThat((Boolean) result.get("ok")).as("pyarrow check " + name + ": " + result.get("detail")).isTrue();
  }

  /** The detail string of a check. */
  public String detail(String name) {
    assertThat(results).as("checks run").containsKey(name);
    return String.valueOf(results.get(name).get("detail"));
  }
}
