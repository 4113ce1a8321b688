/**
 * Cube queries served to Flink: {@link io.ktk.flink.source.KartothekSource}, a bounded FLIP-27
 * source whose splits are query groups. The query model is in {@code query}, planning in {@code
 * planner}, reading and joining in {@code engine} (no Flink there: the in-process query engine),
 * splits in {@code split}, the enumerator in {@code enumerator}, the Flink split reader that runs
 * the engine in {@code reader}.
 */
package io.ktk.flink.source;
