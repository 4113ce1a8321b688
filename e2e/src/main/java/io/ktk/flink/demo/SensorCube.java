package io.ktk.flink.demo;

import java.time.LocalDate;
import java.time.LocalDateTime;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.util.Collector;

/**
 * The demo's cube of generated sensor data, deterministic so that a run can be checked.
 *
 * <p>Event number n is one reading of sensor {@code n % 100}, on one of 7 days, at a time that no
 * other event of that sensor has: the cell {@code (sensor, ts)} of n is unique, so later runs
 * (which continue the numbering) add cells instead of rewriting them. Every 50th reading is
 * missing (null).
 *
 * <ul>
 *   <li>seed {@code readings}: day, sensor, ts, event_id, reading;
 *   <li>enrichment {@code calibration}: per day and sensor, where it stands and its offset (joined
 *       onto every reading of the sensor that day);
 *   <li>enrichment {@code alerts}: a level for the readings above 28 ("high") or missing ("no
 *       reading"); the other readings have none (null after the left join).
 * </ul>
 */
final class SensorCube {
  static final LocalDate FIRST_DAY = LocalDate.of(2026, 11, 16);
  static final int DAYS = 7;
  static final int SENSORS = 100;
  static final double HIGH = 28.0;

  static final RowType READINGS = RowType.of(
      new LogicalType[] {new DateType(false), new DoubleType(true), new BigIntType(false), text(false),
          new TimestampType(false, 6)},
      new String[] {"day", "reading", "event_id", "sensor", "ts"});
  static final RowType CALIBRATION = RowType.of(
      new LogicalType[] {new DateType(false), text(true), new DoubleType(true), text(false)},
      new String[] {"day", "location", "offset", "sensor"});
  static final RowType ALERTS = RowType.of(
      new LogicalType[] {new DateType(false), text(true), text(false), new TimestampType(false, 6)},
      new String[] {"day", "level", "sensor", "ts"});

  private static final String[] LOCATIONS = {"hall", "roof", "cellar", "yard"};

  private SensorCube() {}

  static LocalDate day(long n) {
    return FIRST_DAY.plusDays((n / SENSORS) % DAYS);
  }

  static String sensor(long n) {
    return "sensor-" + (n % SENSORS);
  }

  static LocalDateTime ts(long n) {
    return day(n).atStartOfDay().plusSeconds(n / SENSORS / DAYS * 10).plusNanos((n % 1000) * 1000);
  }

  static Double reading(long n) {
    return n % 50 == 0 ? null : Math.round((20 + 10 * Math.sin(n / 1000.0)) * 100) / 100.0;
  }

  /** Event n as a row of {@link #READINGS}. */
  static final class Readings implements MapFunction<Long, RowData> {
    private static final long serialVersionUID = 1L;

    @Override
    public RowData map(Long n) {
      return GenericRowData.of((int) day(n).toEpochDay(), reading(n), n, StringData.fromString(sensor(n)),
          TimestampData.fromLocalDateTime(ts(n)));
    }
  }

  /** Event n's alert as a row of {@link #ALERTS}, when it has one. */
  static final class Alerts implements FlatMapFunction<Long, RowData> {
    private static final long serialVersionUID = 1L;

    @Override
    public void flatMap(Long n, Collector<RowData> out) {
      Double reading = reading(n);
      String level = reading == null ? "no reading" : reading > HIGH ? "high" : null;
      if (level != null) {
        out.collect(GenericRowData.of((int) day(n).toEpochDay(), StringData.fromString(level),
            StringData.fromString(sensor(n)), TimestampData.fromLocalDateTime(ts(n))));
      }
    }
  }

  /** Number k in [0, DAYS * SENSORS) as the calibration of one sensor on one day. */
  static final class Calibration implements MapFunction<Long, RowData> {
    private static final long serialVersionUID = 1L;

    @Override
    public RowData map(Long k) {
      int sensor = (int) (k % SENSORS);
      LocalDate day = FIRST_DAY.plusDays(k / SENSORS);
      return GenericRowData.of((int) day.toEpochDay(), StringData.fromString(LOCATIONS[sensor % LOCATIONS.length]),
          (sensor % 7 - 3) / 10.0, StringData.fromString("sensor-" + sensor));
    }
  }

  private static LogicalType text(boolean nullable) {
    return new org.apache.flink.table.types.logical.VarCharType(nullable,
        org.apache.flink.table.types.logical.VarCharType.MAX_LENGTH);
  }
}
