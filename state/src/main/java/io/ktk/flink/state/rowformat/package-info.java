/**
 * Row keys: byte strings that compare, group and hash like the rows of several columns they
 * encode (normative spec in {@code docs/row-format.md}). Start at
 * {@link io.ktk.flink.state.rowformat.RowConverter}; Flink rows go one at a time through a
 * {@link io.ktk.flink.state.rowformat.RowDataEncoder} into a
 * {@link io.ktk.flink.state.rowformat.RowBuffer}, and
 * {@link io.ktk.flink.state.rowformat.RowKeyMap} turns keys into dense ids.
 */
package io.ktk.flink.state.rowformat;
