package io.ktk.flink.state.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ColumnVectorsTest {

  @Test
  void longsBoxToTheTypedValueOfTheirType() {
    assertThat(LongType.INTEGER.box(-5)).isEqualTo(-5L);
    assertThat(LongType.UNSIGNED_64.box(-1)).isEqualTo(-1L);
    assertThat(LongType.DATE.box(-1)).isEqualTo(LocalDate.of(1969, 12, 31));
    assertThat(LongType.TIME.box(86_399_999_999_999L)).isEqualTo(LocalTime.of(23, 59, 59, 999_999_999));
    assertThat(LongType.decimal(2).box(-1234)).isEqualTo(new BigDecimal("-12.34"));
    assertThat(LongType.timestamp(1_000, false).box(-1))
        .isEqualTo(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000));
    assertThat(LongType.timestamp(1_000_000, true).box(1_500))
        .isEqualTo(Instant.parse("1970-01-01T00:00:01.500Z"));
    assertThat(LongType.timestamp(1, true).box(-1_000_000_001L))
        .isEqualTo(Instant.parse("1969-12-31T23:59:58.999999999Z"));
  }

  @Test
  void gatherPicksRowsInAnyOrderAndGivesNullForMinusOne() {
    LongVector longs = longs(LongType.DATE, 10L, null, 30L);
    DoubleVector doubles = doubles(1.5, null, -0.0);
    ObjectVector objects = objects("a", null, "c");
    int[] rows = {2, -1, 0, 1, 2, 99};

    for (TypedVector vector : List.<TypedVector>of(longs, doubles, objects)) {
      TypedVector gathered = vector.gather(rows, 5);
      assertThat(gathered.getClass()).isEqualTo(vector.getClass());
      assertThat(gathered.size()).isEqualTo(5);
      assertThat(values(gathered))
          .isEqualTo(Arrays.asList(vector.get(2), null, vector.get(0), null, vector.get(2)));
      assertThat(gathered.isNull(1)).isTrue();
      assertThat(gathered.isNull(3)).isTrue();
      assertThat(gathered.isNull(0)).isFalse();
    }
    LongVector gathered = longs.gather(rows, 5);
    assertThat(gathered.type()).isEqualTo(LongType.DATE);
    assertThat(gathered.hasNulls()).isTrue();
    assertThat(gathered.get(0)).isEqualTo(LocalDate.ofEpochDay(30));
    assertThat(longs.gather(new int[] {0, 2}, 2).hasNulls()).isFalse();
    assertThat(doubles.gather(new int[] {2}, 1).get(0)).isEqualTo(-0.0);
    assertThat(objects.gather(new int[0], 0).size()).isZero();
  }

  @Test
  void longVectorsAppendOnlyLongsOfTheSameType() {
    LongType micros = LongType.timestamp(1_000, false);
    List<LongType> types =
        List.of(LongType.INTEGER, LongType.UNSIGNED_64, LongType.DATE, LongType.TIME, micros,
            LongType.timestamp(1_000, true), LongType.timestamp(1, false), LongType.decimal(2),
            LongType.decimal(3));
    for (LongType a : types) {
      for (LongType b : types) {
        LongVector target = longs(a, 1L);
        LongVector source = longs(b, 2L);
        assertThat(target.canAppend(source)).as(a + " <- " + b).isEqualTo(a.equals(b));
        if (!a.equals(b)) {
          assertThatThrownBy(() -> target.appendFrom(source))
              .isInstanceOf(IllegalArgumentException.class)
              .hasMessageContaining(a.toString());
          assertThat(target.size()).isEqualTo(1);
        }
      }
    }
    assertThat(longs(micros, 1L).canAppend(longs(LongType.timestamp(1_000, false), 1L))).isTrue();
    assertThat(longs(LongType.INTEGER).canAppend(doubles(1.0))).isFalse();
    assertThat(longs(LongType.INTEGER).canAppend(objects(1L))).isFalse();
    assertThat(doubles().canAppend(longs(LongType.INTEGER, 1L))).isFalse();
    assertThat(doubles().canAppend(objects(1.0))).isFalse();
    assertThat(doubles().canAppend(doubles(2.0))).isTrue();
  }

  @Test
  void appendFromKeepsValuesAndNullsOfBothVectors() {
    LongVector target = longs(LongType.decimal(2), 100L, null);
    target.appendFrom(longs(LongType.decimal(2), null, -5L, 7L));
    assertThat(values(target))
        .isEqualTo(Arrays.asList(new BigDecimal("1.00"), null, null, new BigDecimal("-0.05"), new BigDecimal("0.07")));
    assertThat(target.hasNulls()).isTrue();
    assertThat(target.values()[2]).isZero();

    LongVector noNulls = longs(LongType.INTEGER, 1L);
    noNulls.appendFrom(longs(LongType.INTEGER, 2L));
    assertThat(noNulls.hasNulls()).isFalse();
    noNulls.appendFrom(longs(LongType.INTEGER, (Long) null));
    assertThat(noNulls.hasNulls()).isTrue();

    DoubleVector doubles = doubles(Double.NaN);
    doubles.appendFrom(doubles(null, 2.5));
    assertThat(values(doubles)).isEqualTo(Arrays.asList(Double.NaN, null, 2.5));
    assertThat(doubles.hasNulls()).isTrue();

    LongVector self = longs(LongType.INTEGER, 1L, null, 3L);
    self.appendFrom(self);
    assertThat(values(self)).isEqualTo(Arrays.asList(1L, null, 3L, 1L, null, 3L));
  }

  @Test
  void objectVectorsAppendAnyVectorAsTypedValues() {
    ObjectVector target = objects("x");
    assertThat(target.canAppend(longs(LongType.DATE, 1L))).isTrue();
    assertThat(target.canAppend(doubles(1.0))).isTrue();
    target.appendFrom(longs(LongType.DATE, 1L, null));
    target.appendFrom(doubles(null, 0.5));
    target.appendFrom(objects(new BigDecimal("1.10"), null));
    assertThat(values(target))
        .isEqualTo(Arrays.asList("x", LocalDate.ofEpochDay(1), null, null, 0.5, new BigDecimal("1.10"), null));
    assertThat(target.isNull(2)).isTrue();
    assertThat(target.isNull(4)).isFalse();

    ObjectVector copy = ObjectVector.copyOf(longs(LongType.timestamp(1_000_000, true), 1_000L, null));
    assertThat(values(copy)).isEqualTo(Arrays.asList(Instant.ofEpochSecond(1), null));
  }

  @Test
  void vectorsGrowFromAnyCapacityByAppendsAndByAppendFrom() {
    for (int capacity : new int[] {0, 1, 3}) {
      LongVector longs = new LongVector(LongType.INTEGER, capacity);
      DoubleVector doubles = new DoubleVector(capacity);
      ObjectVector objects = new ObjectVector(capacity);
      List<Object> expectedLongs = new ArrayList<>();
      List<Object> expectedObjects = new ArrayList<>();
      for (int i = 0; i < 1000; i++) {
        if (i % 7 == 3) {
          longs.appendNull();
          doubles.appendNull();
          objects.appendNull();
          expectedLongs.add(null);
          expectedObjects.add(null);
        } else {
          longs.append(i);
          doubles.append(i);
          objects.append("v" + i);
          expectedLongs.add((long) i);
          expectedObjects.add("v" + i);
        }
      }
      // appendFrom a bigger vector than the target's spare room (and than half its size)
      LongVector moreLongs = longs.emptyCopy(0);
      moreLongs.appendFrom(longs);
      moreLongs.appendFrom(longs);
      ObjectVector moreObjects = objects.emptyCopy(capacity);
      moreObjects.appendFrom(objects);
      moreObjects.appendFrom(objects);
      DoubleVector moreDoubles = doubles.emptyCopy(capacity);
      moreDoubles.appendFrom(doubles);

      assertThat(values(longs)).isEqualTo(expectedLongs);
      assertThat(values(objects)).isEqualTo(expectedObjects);
      List<Object> expectedDoubles = new ArrayList<>();
      expectedLongs.forEach(v -> expectedDoubles.add(v == null ? null : (double) (long) v));
      assertThat(values(doubles)).isEqualTo(expectedDoubles);
      assertThat(values(moreLongs)).isEqualTo(concat(expectedLongs, expectedLongs));
      assertThat(values(moreObjects)).isEqualTo(concat(expectedObjects, expectedObjects));
      assertThat(values(moreDoubles)).isEqualTo(values(doubles));
      assertThat(moreLongs.type()).isEqualTo(LongType.INTEGER);
    }
  }

  private static List<Object> concat(List<Object> a, List<Object> b) {
    List<Object> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private static List<Object> values(TypedVector vector) {
    List<Object> values = new ArrayList<>();
    for (int row = 0; row < vector.size(); row++) {
      values.add(vector.get(row));
    }
    return values;
  }

  private static LongVector longs(LongType type, Long... values) {
    LongVector vector = new LongVector(type, 1);
    for (Long value : values) {
      if (value == null) {
        vector.appendNull();
      } else {
        vector.append(value);
      }
    }
    return vector;
  }

  private static DoubleVector doubles(Double... values) {
    DoubleVector vector = new DoubleVector(1);
    for (Double value : values) {
      if (value == null) {
        vector.appendNull();
      } else {
        vector.append(value);
      }
    }
    return vector;
  }

  @Test
  void objectsFromDictionariesKnowTheirEntriesThroughGatherAndMergeUntilAnotherValueComes() {
    Object[] entries = {"x", "y"};
    ObjectVector vector = new ObjectVector(1);
    vector.appendNull(); // nulls before the dictionary keep the ids
    vector.useDictionary(entries);
    vector.appendEntry(1);
    vector.appendNull();
    vector.appendEntry(0);
    vector.appendEntry(1);

    assertThat(values(vector)).isEqualTo(Arrays.asList(null, "y", null, "x", "y"));
    assertThat(vector.dictionary()).isSameAs(entries);
    assertThat(Arrays.copyOf(vector.dictionaryIds(), 5)).containsExactly(-1, 1, -1, 0, 1);
    ObjectVector gathered = vector.gather(new int[] {4, -1, 3}, 3);
    assertThat(values(gathered)).isEqualTo(Arrays.asList("y", null, "x"));
    assertThat(Arrays.copyOf(gathered.dictionaryIds(), 3)).containsExactly(1, -1, 0);

    ObjectVector same = new ObjectVector(1);
    same.useDictionary(entries);
    same.appendEntry(0);
    gathered.appendFrom(same);
    assertThat(Arrays.copyOf(gathered.dictionaryIds(), 4)).as("rows of the same dictionary").containsExactly(1, -1, 0, 0);

    ObjectVector other = new ObjectVector(1);
    other.useDictionary(new Object[] {new String("z"), new String("y")});
    other.appendEntry(1);
    other.appendEntry(0);
    other.appendNull();
    gathered.appendFrom(other);
    assertThat(values(gathered)).isEqualTo(Arrays.asList("y", null, "x", "x", "y", "z", null));
    assertThat(gathered.dictionary()).as("rows of another dictionary: merged by value").containsExactly("x", "y", "z");
    assertThat(Arrays.copyOf(gathered.dictionaryIds(), 7)).containsExactly(1, -1, 0, 0, 1, 2, -1);
    assertThat(entries).as("the dictionaries merged from are left alone").containsExactly("x", "y");

    ObjectVector empty = new ObjectVector(1);
    empty.appendNull();
    empty.appendFrom(gathered);
    assertThat(Arrays.copyOf(empty.dictionaryIds(), 8)).as("nulls, then rows with a dictionary")
        .containsExactly(-1, 1, -1, 0, 0, 1, 2, -1);
    empty.appendFrom(objects("w"));
    assertThat(empty.dictionary()).as("rows without one").isNull();

    vector.append("z");
    assertThat(vector.dictionary()).as("a value not from the dictionary").isNull();
    assertThat(values(vector)).isEqualTo(Arrays.asList(null, "y", null, "x", "y", "z"));
    ObjectVector late = objects("a");
    late.useDictionary(entries);
    late.appendEntry(0);
    assertThat(late.dictionary()).as("a dictionary after other values").isNull();
    assertThat(values(late)).isEqualTo(Arrays.asList("a", "x"));
  }

  private static ObjectVector objects(Object... values) {
    ObjectVector vector = new ObjectVector(1);
    for (Object value : values) {
      vector.append(value);
    }
    return vector;
  }
}
