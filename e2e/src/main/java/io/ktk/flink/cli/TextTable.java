package io.ktk.flink.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Rows of cells printed as left-aligned columns (right-aligned where numeric), two spaces apart. */
final class TextTable {
  private final List<String[]> rows = new ArrayList<>();
  private final boolean[] numeric;

  /** @param numeric per column: right-align it */
  TextTable(boolean... numeric) {
    this.numeric = numeric.clone();
  }

  TextTable add(Object... cells) {
    String[] row = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      row[i] = cells[i] == null ? "" : cells[i].toString();
    }
    rows.add(row);
    return this;
  }

  void print(PrintWriter out, String indent) {
    int columns = rows.stream().mapToInt(r -> r.length).max().orElse(0);
    int[] widths = new int[columns];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder(indent);
      for (int i = 0; i < row.length; i++) {
        boolean right = i < numeric.length && numeric[i];
        String pad = " ".repeat(widths[i] - row[i].length());
        line.append(right ? pad + row[i] : row[i] + (i < row.length - 1 ? pad : ""));
        if (i < row.length - 1) {
          line.append("  ");
        }
      }
      out.println(line.toString().stripTrailing());
    }
  }

  /** {@code 1234567} -> {@code 1,234,567}; -1 (unknown) -> {@code ?}. */
  static String count(long value) {
    return value < 0 ? "?" : String.format(Locale.ROOT, "%,d", value);
  }

  /** {@code 1536} -> {@code 1.5 KiB}; -1 (unknown) -> {@code ?}. */
  static String bytes(long value) {
    if (value < 0) {
      return "?";
    }
    if (value < 1024) {
      return value + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double scaled = value;
    int unit = -1;
    while (scaled >= 1024 && unit < units.length - 1) {
      scaled /= 1024;
      unit++;
    }
    return String.format(Locale.ROOT, "%.1f %s", scaled, units[unit]);
  }
}
