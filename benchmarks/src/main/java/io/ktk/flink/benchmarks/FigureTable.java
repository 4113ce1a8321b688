package io.ktk.flink.benchmarks;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** A table of figures printed with aligned columns: text left, numbers right. */
public final class FigureTable {
  private final List<String> header;
  private final List<List<String>> rows = new ArrayList<>();

  public FigureTable(String... header) {
    this.header = List.of(header);
  }

  public FigureTable row(Object... cells) {
    if (cells.length != header.size()) {
      throw new IllegalArgumentException("A row of " + cells.length + " cells in a table of " + header.size()
          + " columns");
    }
    List<String> row = new ArrayList<>();
    for (Object cell : cells) {
      row.add(String.valueOf(cell));
    }
    rows.add(row);
    return this;
  }

  public void print(PrintStream out, String title) {
    int[] widths = new int[header.size()];
    for (int c = 0; c < widths.length; c++) {
      widths[c] = header.get(c).length();
      for (List<String> row : rows) {
        widths[c] = Math.max(widths[c], row.get(c).length());
      }
    }
    out.println();
    out.println(title);
    out.println(line(header, widths, true));
    StringBuilder rule = new StringBuilder();
    for (int c = 0; c < widths.length; c++) {
      rule.append(c == 0 ? "" : "  ").append("-".repeat(widths[c]));
    }
    out.println(rule);
    for (List<String> row : rows) {
      out.println(line(row, widths, false));
    }
    out.flush();
  }

  private static String line(List<String> cells, int[] widths, boolean header) {
    StringBuilder line = new StringBuilder();
    for (int c = 0; c < widths.length; c++) {
      String cell = cells.get(c);
      boolean left = header || c == 0 || !cell.matches("[-+0-9.,x%/ ]+|n/a");
      line.append(c == 0 ? "" : "  ");
      line.append(left ? cell + " ".repeat(widths[c] - cell.length()) : " ".repeat(widths[c] - cell.length()) + cell);
    }
    return line.toString().stripTrailing();
  }
}
