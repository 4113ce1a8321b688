package io.ktk.flink.source.dataset;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.source.query.Condition;
import io.ktk.flink.source.query.ConditionParser;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.query.QueryBuilder;
import java.io.Serializable;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.annotation.PublicEvolving;

/**
 * What a user asks of one plain dataset (not a cube), before it is checked against the dataset:
 * which rows (conditions joined by AND, in the language of cube queries, see {@link
 * ConditionParser}) and which columns in which order. A plain dataset is read as a cube of that
 * one dataset ({@link #toCubeQuery}): every row of every file counts, unless the dataset has a
 * primary key, whose last-written row per key counts.
 *
 * <pre>{@code
 * DatasetQuery query = DatasetQuery.builder()
 *     .where("day >= '2024-01-01' and c in (1, 2)")
 *     .columns("day", "c", "s")
 *     .build();
 * }</pre>
 *
 * <p>Serializable (Java serialization), so that a Flink source can carry it.
 *
 * @param conditions conditions joined by AND; empty: all rows
 * @param columns the columns to return, in this order; empty: the partition columns, then the
 *     others by name (the layout of {@code _common_metadata})
 */
@PublicEvolving
public record DatasetQuery(List<Condition> conditions, List<String> columns) implements Serializable {
  private static final long serialVersionUID = 1L;

  public DatasetQuery {
    conditions = List.copyOf(requireNonNull(conditions, "conditions is null"));
    columns = QueryBuilder.checkedColumns(columns);
  }

  /** All rows and columns. */
  public static DatasetQuery all() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The same query in the form the planner takes. */
  public CubeQuery toCubeQuery() {
    return CubeQuery.builder().where(conditions).columns(columns).build();
  }

  /** The conditions in the text form, e.g. {@code x == 1 and 0 <= z < 10}; empty without conditions. */
  public String conditionText() {
    return conditions.stream().map(Condition::toString).collect(Collectors.joining(" and "));
  }

  @Override
  public String toString() {
    return "DatasetQuery{where=" + conditionText() + ", columns=" + columns + "}";
  }

  /** Collects the parts of a {@link DatasetQuery}; each method adds to what was given before. */
  public static final class Builder extends QueryBuilder<Builder> {
    private Builder() {}

    @Override
    protected Builder self() {
      return this;
    }

    public DatasetQuery build() {
      return new DatasetQuery(conditions, columns);
    }
  }
}
