package io.ktk.flink.source.query;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.flink.annotation.PublicEvolving;

/**
 * What a user asks of a cube, before it is checked against the cube: which rows (conditions,
 * all of which must hold), which columns in which order, at which dimensionality, grouped how,
 * from which datasets. Kartothek's {@code query_cube} parameters, as an immutable value.
 *
 * <pre>{@code
 * CubeQuery query = CubeQuery.builder()
 *     .where("x == 1 and y in (1, 2) and 0 <= z < 10 and day >= '2024-01-01'")
 *     .columns("x", "y", "pred")
 *     .partitionBy("day")
 *     .build();
 * }</pre>
 *
 * @param conditions conditions joined by AND; empty: all rows
 * @param columns the columns to return, in this order; empty: the default (the partition columns,
 *     the query's dimension columns, the partition-by columns, then every payload column the
 *     dimensionality can carry, by name)
 * @param dimensionColumns the dimensionality of the result, a subset of the cube's dimension columns
 *     (fewer than the cube has is a projection: one row per distinct value combination of the seed);
 *     empty: the dimension columns named in {@code columns}, or all of the cube's when it names none
 * @param partitionBy the columns whose values form the query groups (each an index or partition
 *     column); empty: one group per physical partition
 * @param datasets ids of the datasets to use (the seed is always used); empty: all of the cube's
 * @param semantics what the parts mean: this project's ({@link QuerySemantics#SQL}, the default) or
 *     Kartothek 5.3's ({@link QuerySemantics#KARTOTHEK}, which also reads {@code columns} as
 *     Kartothek's {@code payload_columns})
 */
@PublicEvolving
public record CubeQuery(
    List<Condition> conditions,
    List<String> columns,
    List<String> dimensionColumns,
    List<String> partitionBy,
    NavigableSet<String> datasets,
    QuerySemantics semantics) implements Serializable {

  public CubeQuery {
    conditions = List.copyOf(requireNonNull(conditions, "conditions is null"));
    columns = QueryBuilder.checkedNames("columns", columns);
    dimensionColumns = QueryBuilder.checkedNames("dimension columns", dimensionColumns);
    partitionBy = QueryBuilder.checkedNames("partition_by", partitionBy);
    datasets = Collections.unmodifiableNavigableSet(new TreeSet<>(requireNonNull(datasets, "datasets is null")));
    requireNonNull(semantics, "semantics is null");
  }

  /** Whether the query means what Kartothek 5.3's {@code query_cube} means ({@link QuerySemantics#KARTOTHEK}). */
  public boolean kartothekSemantics() {
    return semantics == QuerySemantics.KARTOTHEK;
  }

  /** All rows and columns of all datasets. */
  public static CubeQuery all() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this query. */
  public Builder toBuilder() {
    Builder builder = new Builder();
    builder.conditions.addAll(conditions);
    builder.columns.addAll(columns);
    builder.dimensionColumns.addAll(dimensionColumns);
    builder.partitionBy.addAll(partitionBy);
    builder.datasets.addAll(datasets);
    builder.semantics = semantics;
    return builder;
  }

  /** The conditions in the text form, e.g. {@code x == 1 and 0 <= z < 10}; empty without conditions. */
  public String conditionText() {
    return conditions.stream().map(Condition::toString).collect(Collectors.joining(" and "));
  }

  @Override
  public String toString() {
    return "CubeQuery{where=" + conditionText() + ", columns=" + columns + ", dimensionColumns=" + dimensionColumns
        + ", partitionBy=" + partitionBy + ", datasets=" + datasets
        + (semantics == QuerySemantics.SQL ? "" : ", semantics=" + semantics) + "}";
  }

  /** Collects the parts of a {@link CubeQuery}; each method adds to what was given before. */
  public static final class Builder extends QueryBuilder<Builder> {
    private final List<String> dimensionColumns = new ArrayList<>();
    private final List<String> partitionBy = new ArrayList<>();
    private final Set<String> datasets = new TreeSet<>();
    private QuerySemantics semantics = QuerySemantics.SQL;

    private Builder() {}

    @Override
    protected Builder self() {
      return this;
    }

    /**
     * Adds the conditions of a text such as {@code x == 1 and y in (1, 2)} (see {@link ConditionParser}).
     *
     * @throws InvalidQueryException when the text does not parse
     */
    @Override
    public Builder where(String text) {
      return super.where(requireNonNull(text, "text is null"));
    }

    public Builder dimensionColumns(String... columns) {
      return dimensionColumns(Arrays.asList(columns));
    }

    public Builder dimensionColumns(Collection<String> columns) {
      dimensionColumns.addAll(columns);
      return this;
    }

    public Builder partitionBy(String... columns) {
      return partitionBy(Arrays.asList(columns));
    }

    public Builder partitionBy(Collection<String> columns) {
      partitionBy.addAll(columns);
      return this;
    }

    /** The ids of the datasets to use (the seed is always used). */
    public Builder datasets(String... ids) {
      return datasets(Arrays.asList(ids));
    }

    public Builder datasets(Collection<String> ids) {
      datasets.addAll(ids);
      return this;
    }

    /** What the query means; {@link QuerySemantics#SQL} unless set. */
    public Builder semantics(QuerySemantics semantics) {
      this.semantics = requireNonNull(semantics, "semantics is null");
      return this;
    }

    /**
     * Kartothek 5.3's meaning ({@link QuerySemantics#KARTOTHEK}): exactly the rows {@code query_cube}
     * returns, for people migrating from Kartothek; {@code columns} are its {@code payload_columns}.
     */
    public Builder kartothekSemantics() {
      return semantics(QuerySemantics.KARTOTHEK);
    }

    public CubeQuery build() {
      return new CubeQuery(conditions, columns, dimensionColumns, partitionBy, new TreeSet<>(datasets), semantics);
    }
  }
}
