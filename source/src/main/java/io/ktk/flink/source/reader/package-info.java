/**
 * The Flink side of reading a cube query: {@link io.ktk.flink.source.reader.CubeSourceReader} and
 * its {@code SplitReader}, which hand each split's query group to the engine ({@code
 * io.ktk.flink.source.engine}) one partition at a time and count the rows already emitted.
 */
package io.ktk.flink.source.reader;
