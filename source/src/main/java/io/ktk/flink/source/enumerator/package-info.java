/** The split enumerator of the Kartothek source and its versioned checkpoint state. */
package io.ktk.flink.source.enumerator;
