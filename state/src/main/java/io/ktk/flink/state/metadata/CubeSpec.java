package io.ktk.flink.state.metadata;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.KtkValidationException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * A Kartothek cube: datasets {@code <name>++<id>} that share dimension and partition columns, one of
 * them the seed, which holds the ground truth of which cells exist. As Kartothek 5.3's {@code Cube}:
 * dimension and partition columns are non-empty lists without duplicates that share no column, and
 * the columns whose automatic seed index is suppressed are dimension columns.
 *
 * @param name the cube name (Kartothek's {@code uuid_prefix})
 * @param dimensionColumns columns that span the cube's cells besides the partition columns
 * @param partitionColumns partition keys of every dataset of the cube
 * @param seedDatasetId id of the seed dataset, {@code seed} by default
 * @param suppressIndexOn dimension columns the seed has no index on
 */
public record CubeSpec(
    String name,
    List<String> dimensionColumns,
    List<String> partitionColumns,
    String seedDatasetId,
    NavigableSet<String> suppressIndexOn) {

  public CubeSpec {
    CubeNames.checkName("cube name", name);
    CubeNames.checkName("dataset id", seedDatasetId);
    dimensionColumns = List.copyOf(requireNonNull(dimensionColumns, "dimensionColumns is null"));
    partitionColumns = List.copyOf(requireNonNull(partitionColumns, "partitionColumns is null"));
    suppressIndexOn = Collections.unmodifiableNavigableSet(
        new TreeSet<>(requireNonNull(suppressIndexOn, "suppressIndexOn is null")));
    checkColumns(name, "dimension columns", dimensionColumns);
    checkColumns(name, "partition columns", partitionColumns);
    Set<String> shared = new TreeSet<>(dimensionColumns);
    shared.retainAll(partitionColumns);
    if (!shared.isEmpty()) {
      throw new KtkValidationException("Cannot define cube " + name + ": partition columns cannot share columns with"
          + " dimension columns, but share " + shared);
    }
    Set<String> notDimensions = new TreeSet<>(suppressIndexOn);
    dimensionColumns.forEach(notDimensions::remove);
    if (!notDimensions.isEmpty()) {
      throw new KtkValidationException("Cannot define cube " + name + ": suppress_index_on must be a subset of the"
          + " dimension columns " + dimensionColumns + ", but has " + notDimensions);
    }
  }

  /** A cube with the default seed id {@code seed} and no suppressed indices. */
  public static CubeSpec of(String name, List<String> dimensionColumns, List<String> partitionColumns) {
    return new CubeSpec(name, dimensionColumns, partitionColumns, CubeNames.DEFAULT_SEED_DATASET_ID, new TreeSet<>());
  }

  /** {@code <name>++<datasetId>}. */
  public String datasetUuid(String datasetId) {
    return CubeNames.datasetUuid(name, datasetId);
  }

  public String seedDatasetUuid() {
    return datasetUuid(seedDatasetId);
  }

  /** Partition columns then dimension columns: the columns that identify a cell (Kartothek's sort keys). */
  public List<String> cellColumns() {
    List<String> columns = new ArrayList<>(partitionColumns);
    columns.addAll(dimensionColumns);
    return Collections.unmodifiableList(columns);
  }

  /** Dimension columns the seed dataset must have an index on. */
  public List<String> indexedDimensionColumns() {
    List<String> columns = new ArrayList<>(dimensionColumns);
    columns.removeAll(suppressIndexOn);
    return Collections.unmodifiableList(columns);
  }

  /** The payload among {@code columns}: those that are neither dimension nor partition columns. */
  public NavigableSet<String> payloadColumns(Collection<String> columns) {
    NavigableSet<String> payload = new TreeSet<>(columns);
    payload.removeAll(dimensionColumns);
    payload.removeAll(partitionColumns);
    return payload;
  }

  private static void checkColumns(String cube, String what, List<String> columns) {
    if (columns.isEmpty()) {
      throw new KtkValidationException("Cannot define cube " + cube + ": " + what + " must not be empty");
    }
    Set<String> seen = new HashSet<>();
    Set<String> duplicates = new LinkedHashSet<>();
    for (String column : columns) {
      if (column.isEmpty()) {
        throw new KtkValidationException("Cannot define cube " + cube + ": " + what + " contain an empty name");
      }
      if (!seen.add(column)) {
        duplicates.add(column);
      }
    }
    if (!duplicates.isEmpty()) {
      throw new KtkValidationException("Cannot define cube " + cube + ": " + what + " " + columns
          + " contain duplicates " + duplicates);
    }
  }
}
