package io.ktk.flink.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * One in-process run of {@link Ktk}: its exit code and what it wrote to stdout and stderr. No
 * terminal, so no progress and no questions, as in a script.
 */
public record KtkRun(int exitCode, String out, String err) {

  public static KtkRun ktk(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Ktk.run(new PrintWriter(out), new PrintWriter(err), Terminal.none(), args);
    return new KtkRun(code, out.toString(), err.toString());
  }

  @Override
  public String toString() {
    return "exit " + exitCode + "\n--- stdout:\n" + out + "\n--- stderr:\n" + err;
  }
}
