package io.ktk.flink.demo;

import java.time.LocalDate;
import java.time.LocalDateTime;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Generated sensor readings for the demo: event number n becomes one reading of one of 100
 * sensors on one of 7 days. Deterministic, so a run can be checked; every 50th reading is missing
 * (null).
 */
final class SensorEvents implements MapFunction<Long, RowData> {
  private static final long serialVersionUID = 1L;

  static final LocalDate FIRST_DAY = LocalDate.of(2026, 11, 16);
  static final int DAYS = 7;
  static final int SENSORS = 100;

  static final RowType ROW_TYPE = RowType.of(
      new org.apache.flink.table.types.logical.LogicalType[] {
        new BigIntType(false), new DateType(false), new VarCharType(false, VarCharType.MAX_LENGTH),
        new DoubleType(true), new VarCharType(true, VarCharType.MAX_LENGTH), new TimestampType(true, 6)},
      new String[] {"event_id", "day", "sensor", "reading", "status", "ts"});

  @Override
  public RowData map(Long n) {
    LocalDate day = FIRST_DAY.plusDays(n % DAYS);
    int sensor = (int) ((n * 7919) % SENSORS);
    Double reading = n % 50 == 0 ? null : Math.round((20 + 10 * Math.sin(n / 1000.0)) * 100) / 100.0;
    String status = reading == null ? null : reading > 28 ? "high" : "ok";
    LocalDateTime ts = day.atStartOfDay().plusSeconds(n % 86_400).plusNanos((n % 1000) * 1000);
    return GenericRowData.of(
        n,
        (int) day.toEpochDay(),
        StringData.fromString("sensor-" + sensor),
        reading,
        status == null ? null : StringData.fromString(status),
        TimestampData.fromLocalDateTime(ts));
  }
}
