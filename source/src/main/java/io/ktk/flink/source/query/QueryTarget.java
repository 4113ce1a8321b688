package io.ktk.flink.source.query;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;

/**
 * What a query reads, by name: a cube (its datasets joined on their cells), or one plain dataset,
 * which is read as a cube of that one dataset, its seed, with nothing to join. Serializable, so
 * that a Flink source can carry it.
 *
 * @param kind cube or plain dataset
 * @param name the cube's name, or the dataset's uuid
 */
public record QueryTarget(Kind kind, String name) implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Whether a target is a cube or a plain dataset. */
  public enum Kind {
    CUBE,
    DATASET
  }

  public QueryTarget {
    requireNonNull(kind, "kind is null");
    requireNonNull(name, "name is null");
  }

  /** Cube {@code name}. */
  public static QueryTarget cube(String name) {
    return new QueryTarget(Kind.CUBE, name);
  }

  /** The plain dataset {@code uuid}. */
  public static QueryTarget dataset(String uuid) {
    return new QueryTarget(Kind.DATASET, uuid);
  }

  /** {@code cube 'sales'} or {@code dataset 'events'}, as messages name it. */
  public String describe() {
    return (kind == Kind.CUBE ? "cube '" : "dataset '") + name + "'";
  }

  @Override
  public String toString() {
    return describe();
  }
}
