/**
 * The Kartothek type system over Arrow types (Kartothek's table type system;
 * {@code docs/design.md}, sections 3 and 4).
 *
 * <ul>
 *   <li>{@link io.ktk.flink.state.types.FlinkArrowTypes}: Flink {@code LogicalType} to Arrow
 *       {@code Field} and back.
 *   <li>{@link io.ktk.flink.state.types.TypeNormalization}: {@code norm(type)}, the type a column
 *       has in the common metadata ({@code int8 -> int64}, {@code dictionary<T> -> norm(T)}, ...).
 *   <li>{@link io.ktk.flink.state.types.TypeClass}: which types hold the same kind of value.
 *   <li>{@link io.ktk.flink.state.types.SchemaCompatibility}: may a batch be appended, and what
 *       the committed schema becomes.
 *   <li>{@link io.ktk.flink.state.types.SchemaInference}: the schema pyarrow would infer from
 *       values without a declared schema ({@code null} for columns without values).
 *   <li>{@link io.ktk.flink.state.types.TimestampCoercion}: timestamps to microseconds, never
 *       truncating.
 *   <li>{@link io.ktk.flink.state.types.KeyColumns}: key columns may not be null.
 *   <li>{@link io.ktk.flink.state.types.ArrowTypeNames}: types as pyarrow prints them, for
 *       messages.
 *   <li>{@link io.ktk.flink.state.types.TypedValueCodec}: the binary encoding of typed values in
 *       checkpointed state (source splits, sink committables).
 * </ul>
 *
 * <p>Dictionary-encoded fields are expected in Arrow's message format: the field's type is the
 * value type and {@code Field.getDictionary()} carries index type and ordered flag.
 */
package io.ktk.flink.state.types;
