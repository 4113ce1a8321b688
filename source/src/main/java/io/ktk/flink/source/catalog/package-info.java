/**
 * The Flink catalog {@code 'type' = 'kartothek'}: a store's datasets and cubes as tables of the
 * {@code 'connector' = 'kartothek'} connector, with the schema and partition keys they record.
 */
package io.ktk.flink.source.catalog;
