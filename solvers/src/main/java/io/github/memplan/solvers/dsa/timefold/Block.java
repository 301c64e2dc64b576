package io.github.memplan.solvers.dsa.timefold;

import ai.timefold.solver.core.api.domain.entity.PlanningEntity;
import ai.timefold.solver.core.api.domain.variable.ShadowVariable;

/**
 * One buffer as an element of the placement order. Its offset is a shadow variable that {@link
 * DecodeListener} computes by decoding the order; its position in the order is kept beside it
 * (plain state of the decoder, not a Timefold variable).
 */
@PlanningEntity
public class Block {
  private int index;
  private String id;
  private long size;

  /** Where {@link DecodeListener} last put it in the order; {@code MAX_VALUE} when unplaced. */
  int position = Integer.MAX_VALUE;

  @SuppressWarnings("removal") // see DecodeListener for why a list listener and not a supplier
  @ShadowVariable(
      variableListenerClass = DecodeListener.class,
      sourceEntityClass = Placement.class,
      sourceVariableName = "order")
  private Long offset;

  /** For Timefold's planning clone. */
  public Block() {}

  Block(int index, String id, long size) {
    this.index = index;
    this.id = id;
    this.size = size;
  }

  /** A block already at {@code offset}, for constraint tests. */
  static Block at(int index, long size, long offset) {
    Block b = new Block(index, "b" + index, size);
    b.offset = offset;
    return b;
  }

  /** Index of the buffer in its instance. */
  public int getIndex() {
    return index;
  }

  public String getId() {
    return id;
  }

  public long getSize() {
    return size;
  }

  /** The decoded offset, or {@code null} before the first decode. */
  public Long getOffset() {
    return offset;
  }

  void setOffset(Long offset) {
    this.offset = offset;
  }

  /** {@code offset + size}; 0 before the first decode. */
  public long end() {
    return offset == null ? 0 : offset + size;
  }

  @Override
  public String toString() {
    return id + "@" + offset;
  }
}
