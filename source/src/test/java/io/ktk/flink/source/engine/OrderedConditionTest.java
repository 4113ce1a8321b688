package io.ktk.flink.source.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.source.query.Condition;
import io.ktk.flink.source.query.ConditionParser;
import io.ktk.flink.source.query.TypedCondition;
import io.ktk.flink.state.vector.DoubleVector;
import io.ktk.flink.state.vector.LongType;
import io.ktk.flink.state.vector.LongVector;
import io.ktk.flink.state.vector.TypedVector;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;

/** Conditions tested on primitive vectors pass exactly the rows {@link TypedCondition#test} passes. */
class OrderedConditionTest {
  private static final String[] OPERATORS = {"==", "!=", "<", "<=", ">", ">="};

  private static void check(Field column, TypedVector vector, String[] literals, Random random) {
    for (int i = 0; i < 300; i++) {
      String a = literals[random.nextInt(literals.length)];
      String b = literals[random.nextInt(literals.length)];
      String text = switch (random.nextInt(3)) {
        case 0 -> "x " + OPERATORS[random.nextInt(OPERATORS.length)] + " " + a;
        case 1 -> "x in (" + a + ", " + b + ")";
        default -> a + (random.nextBoolean() ? " <= " : " < ") + "x" + (random.nextBoolean() ? " <= " : " < ") + b;
      };
      List<Condition> parsed = ConditionParser.parse(text);
      TypedCondition condition = TypedCondition.resolve(parsed.get(0), column, "test");
      OrderedCondition ordered = OrderedCondition.of(condition, vector);
      assertThat(ordered).as(text).isNotNull();
      boolean[] passes = new boolean[vector.size() + 3];
      Arrays.fill(passes, true);
      ordered.apply(vector, vector.size(), passes, 3);
      for (int row = 0; row < vector.size(); row++) {
        assertThat(passes[3 + row]).as("%s on %s", text, vector.get(row)).isEqualTo(condition.test(vector.get(row)));
      }
    }
  }

  @Test
  void doubleConditionsTreatNegativeZeroNaNAndNullsLikeTypedValues() {
    double[] values = {Double.NaN, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, -0.0, 0.0, -1.5, 2.5, 0.3, 1e300};
    DoubleVector vector = new DoubleVector(0);
    for (double value : values) {
      vector.append(value);
    }
    vector.appendNull();
    Field column = new Field("x", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null);
    check(column, vector, new String[] {"-0.0", "0.0", "-1.5", "2.5", "0.3", "1", "-1e308"}, new Random(3));
  }

  @Test
  void integerConditionsAgreeWithTypedValues() {
    LongVector vector = new LongVector(LongType.INTEGER, 0);
    for (long value : new long[] {Long.MIN_VALUE, -7, -1, 0, 1, 3, Long.MAX_VALUE}) {
      vector.append(value);
    }
    vector.appendNull();
    Field column = new Field("x", FieldType.nullable(new ArrowType.Int(64, true)), null);
    check(column, vector, new String[] {"-7", "0", "1", "3", "-9223372036854775808", "9223372036854775807"},
        new Random(4));
  }
}
