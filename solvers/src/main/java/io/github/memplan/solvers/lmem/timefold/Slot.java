package io.github.memplan.solvers.lmem.timefold;

import ai.timefold.solver.core.api.domain.entity.PlanningEntity;
import ai.timefold.solver.core.api.domain.variable.ShadowVariable;

/**
 * One LMEM buffer as an element of the placement order. Its address is a shadow variable that
 * {@link LmemDecodeListener} computes by decoding the order; its position in the order is kept
 * beside it (plain state of the decoder, not a Timefold variable).
 */
@PlanningEntity
public class Slot {
  private int index;
  private String id;
  private long bytes;
  private long bankBytes;

  /** Where {@link LmemDecodeListener} last put it in the order; {@code MAX_VALUE} when unplaced. */
  int position = Integer.MAX_VALUE;

  @SuppressWarnings("removal") // a list listener, for the reason given in LmemDecodeListener
  @ShadowVariable(
      variableListenerClass = LmemDecodeListener.class,
      sourceEntityClass = Sequence.class,
      sourceVariableName = "order")
  private Long address;

  /** For Timefold's planning clone. */
  public Slot() {}

  Slot(int index, String id, long bytes, long bankBytes) {
    this.index = index;
    this.id = id;
    this.bytes = bytes;
    this.bankBytes = bankBytes;
  }

  /** A slot already at {@code address}, for constraint tests. */
  static Slot at(int index, long bytes, long bankBytes, long address) {
    Slot s = new Slot(index, "b" + index, bytes, bankBytes);
    s.address = address;
    return s;
  }

  /** Index of the buffer in its instance. */
  public int getIndex() {
    return index;
  }

  public String getId() {
    return id;
  }

  public long getBytes() {
    return bytes;
  }

  /** The decoded address, or {@code null} before the first decode. */
  public Long getAddress() {
    return address;
  }

  void setAddress(Long address) {
    this.address = address;
  }

  /** {@code address + bytes}; 0 before the first decode. */
  public long end() {
    return address == null ? 0 : address + bytes;
  }

  private long firstBank() {
    return address / bankBytes;
  }

  private long lastBank() {
    return (address + bytes - 1) / bankBytes;
  }

  /** Whether it straddles a bank boundary as {@link io.github.memplan.core.lmem.LmemBanks} says. */
  public boolean straddles() {
    return address != null && bytes <= bankBytes && firstBank() != lastBank();
  }

  /** Whether both are placed and occupy a common bank. */
  public boolean sharesBank(Slot other) {
    return address != null
        && other.address != null
        && firstBank() <= other.lastBank()
        && other.firstBank() <= lastBank();
  }

  @Override
  public String toString() {
    return id + "@" + address;
  }
}
