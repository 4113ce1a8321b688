/** Checks of option keys shared by the builders, the SQL factories, the catalog and the command line. */
package io.ktk.flink.state.config;
