package io.ktk.flink.source.query;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The parts every query has, collected by its builder: conditions (joined by AND, in the language
 * of {@link ConditionParser}) and the columns to return, in order. Each method adds to what was
 * given before. The builders of {@link CubeQuery} and of a plain dataset's query extend it.
 *
 * @param <B> the concrete builder, which every method returns
 */
public abstract class QueryBuilder<B extends QueryBuilder<B>> {
  protected final List<Condition> conditions = new ArrayList<>();
  protected final List<String> columns = new ArrayList<>();

  protected QueryBuilder() {}

  /** This builder, as its concrete type. */
  protected abstract B self();

  /**
   * Adds the conditions of a text such as {@code x == 1 and y in (1, 2)} (see {@link
   * ConditionParser}); blank adds none.
   *
   * @throws InvalidQueryException when the text does not parse
   */
  public B where(String text) {
    conditions.addAll(ConditionParser.parse(text));
    return self();
  }

  public B where(Condition... conditions) {
    return where(Arrays.asList(conditions));
  }

  public B where(Collection<Condition> conditions) {
    conditions.forEach(condition -> this.conditions.add(requireNonNull(condition, "condition is null")));
    return self();
  }

  public B columns(String... columns) {
    return columns(Arrays.asList(columns));
  }

  public B columns(Collection<String> columns) {
    this.columns.addAll(columns);
    return self();
  }

  /**
   * A copy of {@code names}, checked: no empty name, none twice.
   *
   * @param what what the names are, for messages ({@code columns}, {@code partition_by}, ...)
   * @throws InvalidQueryException naming the list and the offending name
   */
  static List<String> checkedNames(String what, List<String> names) {
    List<String> copy = List.copyOf(requireNonNull(names, what + " is null"));
    Set<String> seen = new HashSet<>();
    for (String name : copy) {
      if (name.isEmpty()) {
        throw new InvalidQueryException("Cannot build query: " + what + " " + copy + " contain an empty name");
      }
      if (!seen.add(name)) {
        throw new InvalidQueryException("Cannot build query: column '" + name + "' appears twice in " + what + " "
            + copy);
      }
    }
    return copy;
  }

  /** The names of {@code columns} checked as {@link #checkedNames} checks them; for queries of other packages. */
  public static List<String> checkedColumns(List<String> columns) {
    return checkedNames("columns", columns);
  }
}
