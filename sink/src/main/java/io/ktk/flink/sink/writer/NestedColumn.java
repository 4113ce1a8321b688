package io.ktk.flink.sink.writer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.column.ColumnWriter;

/**
 * A nested column (ARRAY, ROW, and any nesting of them) shredded as Parquet stores it: each leaf
 * keeps a repetition and a definition level per entry and its present values in a {@link
 * ColumnBuffer}. Every node of the file schema is optional (lists: {@code optional group (LIST) {
 * repeated group list { optional element } }}), so a node's definition level when present is the
 * number of optional and repeated nodes from the column down to it, and a list's elements repeat
 * at one more than the enclosing repetition level.
 *
 * <pre>
 * ARRAY&lt;BIGINT&gt;   leaf col.list.element: max definition 3, max repetition 1
 *   null       (r 0, d 0)
 *   []         (r 0, d 1)
 *   [null]     (r 0, d 2)
 *   [1, 2]     (r 0, d 3, 1), (r 1, d 3, 2)
 * </pre>
 *
 * <p>A row adds one run of entries to every leaf, starting with repetition level 0.
 */
final class NestedColumn extends ColumnBuffer {
  private final Node root;
  private final List<Leaf> leaves = new ArrayList<>();

  private final BlockPool pool;

  NestedColumn(LogicalType type, Account account, BlockPool pool) {
    super(account);
    this.pool = pool;
    this.root = node(type, 1, 0);
  }

  private Node node(LogicalType type, int definition, int repetition) {
    if (type instanceof ArrayType array) {
      return new ListNode(definition, repetition, node(array.getElementType(), definition + 2, repetition + 1));
    }
    if (type instanceof RowType row) {
      List<Node> children = new ArrayList<>();
      for (LogicalType child : row.getChildren()) {
        children.add(node(child, definition + 1, repetition));
      }
      return new StructNode(definition, children.toArray(Node[]::new));
    }
    Leaf leaf = new Leaf(definition, ColumnBuffer.forType(type, account, pool));
    leaves.add(leaf);
    return leaf;
  }

  @Override
  void appendValue(RowData row, int pos) {
    root.present(row, pos, 0);
  }

  @Override
  void appendNull() {
    root.absent(0, 0);
  }

  @Override
  void write(ColumnWriter writer, int index, int rep, int def) {
    throw new IllegalStateException("A nested column is written row by row");
  }

  @Override
  int leafCount() {
    return leaves.size();
  }

  @Override
  void startWriting() {
    for (Leaf leaf : leaves) {
      leaf.entryCursor = 0;
      leaf.valueCursor = 0;
    }
  }

  @Override
  void writeRow(ColumnWriter[] writers, int first, int row) {
    for (int k = 0; k < leaves.size(); k++) {
      leaves.get(k).writeRun(writers[first + k]);
    }
  }

  @Override
  long valueBytes() {
    long bytes = 0;
    for (Leaf leaf : leaves) {
      bytes += 2L * leaf.definitions.length;
    }
    return bytes;
  }

  @Override
  boolean keepsArrays() {
    return false;
  }

  @Override
  void releaseValues() {
    for (Leaf leaf : leaves) {
      leaf.values.release();
      leaf.definitions = new byte[0];
      leaf.repetitions = new byte[0];
      leaf.entries = 0;
    }
  }

  /** A node of the file schema below the column. */
  private abstract static class Node {
    /** The definition level at which this node is present. */
    final int definition;

    Node(int definition) {
      this.definition = definition;
    }

    /** The value at {@code container[pos]} is not null. */
    abstract void present(RowData container, int pos, int repetition);

    /** Nothing below this node is present: every leaf gets one entry with these levels. */
    abstract void absent(int repetition, int definition);
  }

  private static final class StructNode extends Node {
    private final Node[] children;

    StructNode(int definition, Node[] children) {
      super(definition);
      this.children = children;
    }

    @Override
    void present(RowData container, int pos, int repetition) {
      RowData struct = container.getRow(pos, children.length);
      for (int i = 0; i < children.length; i++) {
        if (struct.isNullAt(i)) {
          children[i].absent(repetition, definition);
        } else {
          children[i].present(struct, i, repetition);
        }
      }
    }

    @Override
    void absent(int repetition, int definition) {
      for (Node child : children) {
        child.absent(repetition, definition);
      }
    }
  }

  private static final class ListNode extends Node {
    private final int elementRepetition;
    private final Node element;
    private final ArrayElements elements = new ArrayElements();

    ListNode(int definition, int repetition, Node element) {
      super(definition);
      this.elementRepetition = repetition + 1;
      this.element = element;
    }

    @Override
    void present(RowData container, int pos, int repetition) {
      ArrayData array = container.getArray(pos);
      int size = array.size();
      if (size == 0) {
        element.absent(repetition, definition);
        return;
      }
      RowData view = elements.of(array);
      for (int j = 0; j < size; j++) {
        int r = j == 0 ? repetition : elementRepetition;
        if (array.isNullAt(j)) {
          element.absent(r, definition + 1);
        } else {
          element.present(view, j, r);
        }
      }
    }

    @Override
    void absent(int repetition, int definition) {
      element.absent(repetition, definition);
    }
  }

  /** A leaf: levels per entry, values of the present entries. */
  private final class Leaf extends Node {
    final ColumnBuffer values;
    byte[] definitions = new byte[0];
    byte[] repetitions = new byte[0];
    int entries;
    int entryCursor;
    int valueCursor;

    Leaf(int definition, ColumnBuffer values) {
      super(definition);
      this.values = values;
    }

    @Override
    void present(RowData container, int pos, int repetition) {
      add(repetition, definition);
      values.appendPresent(container, pos);
    }

    @Override
    void absent(int repetition, int definition) {
      add(repetition, definition);
    }

    private void add(int repetition, int definition) {
      if (entries == definitions.length) {
        int capacity = grown(definitions.length);
        account.grew(2L * (capacity - definitions.length));
        definitions = Arrays.copyOf(definitions, capacity);
        repetitions = Arrays.copyOf(repetitions, capacity);
      }
      definitions[entries] = (byte) definition;
      repetitions[entries] = (byte) repetition;
      entries++;
    }

    /** Writes the entries of the next row: the next one (repetition 0) and those that repeat in it. */
    void writeRun(ColumnWriter writer) {
      do {
        int rep = repetitions[entryCursor];
        int def = definitions[entryCursor];
        if (def == definition) {
          values.write(writer, valueCursor++, rep, def);
        } else {
          writer.writeNull(rep, def);
        }
        entryCursor++;
      } while (entryCursor < entries && repetitions[entryCursor] != 0);
    }
  }
}
