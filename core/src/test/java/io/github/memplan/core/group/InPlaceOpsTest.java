package io.github.memplan.core.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.lmem.InPlace;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemInstance;
import java.util.List;
import org.junit.jupiter.api.Test;

/** TPU-MLIR's {@code isInplaceOp} and the in-place pairs of today's timestep tables. */
class InPlaceOpsTest {

  private static final Attributes K1 = Attributes.builder().put("kernel_shape", 1, 1).build();

  /**
   * A residual block: {@code c1 = conv(x)}, {@code c2 = conv(c1)}, {@code add = add(c2, c1)},
   * {@code sig = sigmoid(add)}. {@code c1} has two users (c2 and the add), {@code c2} one.
   */
  private static Graph residual(boolean c1First) {
    Graph.Builder b = Graph.builder("residual");
    b.input("x", DType.F32, 1, 64, 16, 16);
    b.weight("w1", DType.F32, 64, 64, 1, 1);
    b.weight("w2", DType.F32, 64, 64, 1, 1);
    b.op("c1", OpKind.CONV, K1, "x", "w1");
    b.op("c2", OpKind.CONV, K1, "c1", "w2");
    if (c1First) {
      b.op("add", OpKind.ADD, Attributes.empty(), "c1", "c2");
    } else {
      b.op("add", OpKind.ADD, Attributes.empty(), "c2", "c1");
    }
    b.op("sig", OpKind.SIGMOID, Attributes.empty(), "add");
    b.output("sig");
    return b.build();
  }

  private static LmemInstance today(Graph g, Chip chip) {
    GroupCandidate c =
        GroupCandidate.build(
            "residual",
            g,
            g.ops(),
            chip,
            ShapeSecs.nh(1, 1),
            SliceRules.TODAY,
            TimestepMethod.get("today"));
    assertThat(c).isInstanceOf(GroupCandidate.Built.class);
    return ((GroupCandidate.Built) c).timesteps().lmem();
  }

  private static int index(LmemInstance inst, String id) {
    for (int i = 0; i < inst.buffers().size(); i++) {
      if (inst.buffers().get(i).id().equals(id)) {
        return i;
      }
    }
    throw new AssertionError("no buffer " + id);
  }

  @Test
  void theAddWritesOverItsSingleUseOperandInTodaysTable() {
    // Nearest rows r0 load x,w1 | r1 c1, load w2 | r2 c2 | r3 add | r4 sig | r5 store sig; the
    // pipeline moves the store of sig to r1 and the loads of x, w1 to r4, r0 and r5 go:
    //   R0 c1 | w2, sig   R1 c2   R2 add   R3 sig | x, w1
    // Rebalancing (1024 cycles for a conv, 16 for the add and the sigmoid, 1024 to move x or
    // sig, 256 a filter) moves the store of sig to R1 and w1 to R2; c2 and add have no transfer.
    // So c2 lives [R1, R2] and add [R2, R3]: c2 ends where add starts, both run forward
    // (can_membuf_inplace_alloc), c2 has one use and as many bytes as add: one pair (c2, add).
    // c1 [R0, R2] has two users (c2 and the add), sig is no in-place kind.
    Chip chip = Chips.get("bm1684x");
    LmemInstance inst = today(residual(false), chip);
    LmemBuffer c2 = inst.buffers().get(index(inst, "c2"));
    LmemBuffer add = inst.buffers().get(index(inst, "add"));
    assertThat(List.of(c2.start(), c2.end(), add.start(), add.end())).containsExactly(1, 2, 2, 3);
    assertThat(inst.inPlace()).containsExactly(new InPlace(index(inst, "c2"), index(inst, "add")));
    // add(c1, c2): operand 0 is c1, used twice: no pair
    assertThat(today(residual(true), chip).inPlace()).isEmpty();
    // CV18xx has no in-place LMEM
    assertThat(today(residual(false), Chips.get("cv183x")).inPlace()).isEmpty();
  }

  @Test
  void isInPlaceOpFollowsTheSourceConditions() {
    Chip bm = Chips.get("bm1684x");
    Graph.Builder b = Graph.builder("ops");
    b.input("x", DType.F32, 1, 8, 4, 4);
    b.input("v", DType.F32, 1, 8, 1, 1);
    b.op("twice", OpKind.MUL, Attributes.empty(), "x", "x"); // x read twice: two uses
    b.op("bcast", OpKind.ADD, Attributes.empty(), "v", "twice"); // v smaller than the result
    b.op("sub", OpKind.SUB, Attributes.empty(), "bcast", "x");
    b.op("flat", OpKind.FLATTEN, Attributes.empty(), "sub"); // Flatten is a Reshape
    b.op("sig", OpKind.SIGMOID, Attributes.empty(), "flat");
    b.output("sig");
    Graph g = b.build();
    assertThat(InPlaceOps.uses(g, "x")).isEqualTo(3);
    assertThat(InPlaceOps.isInPlaceOp(g, g.op("twice"), bm)).isFalse();
    assertThat(InPlaceOps.isInPlaceOp(g, g.op("bcast"), bm)).isFalse();
    assertThat(InPlaceOps.isInPlaceOp(g, g.op("sub"), bm)).isTrue();
    assertThat(InPlaceOps.isInPlaceOp(g, g.op("flat"), bm)).isTrue();
    assertThat(InPlaceOps.isInPlaceOp(g, g.op("sig"), bm)).isFalse();
    assertThat(InPlaceOps.isInPlaceOp(g, g.op("sub"), Chips.get("cv183x"))).isFalse();
  }

  @Test
  void aFlattenAfterAGlobalPoolJoinsTheGroupAndWritesInPlace() {
    // conv 1x1 (1,64,8,8) -> global pool (1,64,1,1) -> flatten (1,64): the Flatten keeps dims 0
    // and 1, so it is local on BM1684X (ReshapeOp::LocalGenSupport). Rows after the pipeline:
    //   R0 conv | store flat   R1 pool   R2 flat | x, w
    // (rebalancing may move x or w into R1; the pool and the flatten have no transfer of their
    // own but the flatten's store, which stays in R0, whose slack is positive). pool lives
    // [R1, R2], flat [R2, R0] (wrapping, ends at 0 < 1): a pair, as for any Reshape with a
    // single-use operand of as many bytes.
    Graph g = GroupFixtures.flattenHead(false);
    assertThat(OpSemantics.groupable(g, g.op("flat"), Chips.get("bm1684x"))).isTrue();
    assertThat(OpSemantics.groupable(g, g.op("flat"), Chips.get("bm1684"))).isFalse();
    LmemInstance inst = today(g, Chips.get("bm1684x"));
    LmemBuffer pool = inst.buffers().get(index(inst, "pool"));
    LmemBuffer flat = inst.buffers().get(index(inst, "flat"));
    assertThat(List.of(pool.start(), pool.end(), flat.start(), flat.end()))
        .containsExactly(1, 2, 2, 0);
    assertThat(inst.inPlace())
        .containsExactly(new InPlace(index(inst, "pool"), index(inst, "flat")));
  }
}
