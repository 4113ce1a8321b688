/**
 * What a sink is configured with, shared by the builders, the writers and the committer: {@link
 * io.ktk.flink.sink.config.KartothekSinkConfig} (one dataset), {@link
 * io.ktk.flink.sink.config.CubeSinkConfig} (the datasets of a cube), the {@code ConfigOption}s of
 * {@link io.ktk.flink.sink.config.KartothekSinkOptions} and the choices they offer.
 */
package io.ktk.flink.sink.config;
