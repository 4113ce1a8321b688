package io.ktk.flink.cli;

import java.io.PrintWriter;

/**
 * One line of progress on stderr ({@code reading files 120/800}), redrawn in place with a carriage
 * return at most ten times a second and cleared when done, so that it never mixes with the output
 * on stdout or with messages. Drawn only for a terminal ({@link Terminal#progress}); a tiny class
 * rather than a progress-bar library, since one counter is all the commands need.
 */
public class Progress implements AutoCloseable {
  private static final long REDRAW_NANOS = 100_000_000L;
  private static final Progress SILENT = new Progress(null, "", -1);

  private final PrintWriter err;
  private final String label;
  private final long total;
  private long done;
  private long lastDrawn;
  private int drawnWidth;

  Progress(PrintWriter err, String label, long total) {
    this.err = err;
    this.label = label;
    this.total = total;
  }

  /** A progress that draws nothing. */
  static Progress silent() {
    return SILENT;
  }

  /** One more step is done. */
  public void step() {
    set(done + 1);
  }

  /** {@code value} steps are done. */
  public void set(long value) {
    if (err == null) {
      return;
    }
    done = value;
    long now = System.nanoTime();
    if (now - lastDrawn >= REDRAW_NANOS || done == total) {
      lastDrawn = now;
      String line = label + " " + done + (total >= 0 ? "/" + total : "");
      err.print("\r" + line + " ".repeat(Math.max(0, drawnWidth - line.length())));
      err.flush();
      drawnWidth = line.length();
    }
  }

  /** Clears the line. */
  @Override
  public void close() {
    if (err != null && drawnWidth > 0) {
      err.print("\r" + " ".repeat(drawnWidth) + "\r");
      err.flush();
      drawnWidth = 0;
    }
  }
}
