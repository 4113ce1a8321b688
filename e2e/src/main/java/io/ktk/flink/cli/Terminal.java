package io.ktk.flink.cli;

import java.io.Console;
import java.io.PrintWriter;

/**
 * Whether a person sits at the other end: progress lines and confirmation prompts appear only then.
 * {@link #system()} asks {@link System#console()}, which exists when stdin and stdout are terminals;
 * tests use {@link #none()}.
 */
public interface Terminal {

  /** True when progress may be drawn on stderr and questions asked on stdin. */
  boolean interactive();

  /** Asks a question and returns the answer, or null when there is nobody to ask. */
  String ask(String prompt);

  /** The terminal of this process, if it has one. */
  static Terminal system() {
    Console console = System.console();
    if (console == null) {
      return none();
    }
    return new Terminal() {
      @Override
      public boolean interactive() {
        return true;
      }

      @Override
      public String ask(String prompt) {
        return console.readLine("%s", prompt);
      }
    };
  }

  /** No terminal: no progress, no questions. */
  static Terminal none() {
    return new Terminal() {
      @Override
      public boolean interactive() {
        return false;
      }

      @Override
      public String ask(String prompt) {
        return null;
      }
    };
  }

  /** A progress line for {@code total} steps (or -1 when unknown) on {@code err}, drawn only when interactive. */
  default Progress progress(PrintWriter err, String label, long total) {
    return interactive() ? new Progress(err, label, total) : Progress.silent();
  }
}
