package io.github.memplan.core.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.lmem.Timestep;
import java.util.List;
import org.junit.jupiter.api.Test;

/** §2.8(c) memory-aware rebalancing, hand-worked. */
class MemoryAwareRebalanceTest {

  /**
   * A row running op {@code op} (touching no transferred buffer) with the transfers {@code gdma}.
   */
  private static Timestep row(String op, Integer... gdma) {
    return new Timestep(
        List.of(new Timestep.TiuOp(op, List.of(), List.of(), List.of())), List.of(gdma));
  }

  @Test
  void aLoadMovesEarlierIntoARowWithSlackAndTheGroupGetsFaster() {
    // x, y [1,64,16,16] f32, w [64,64,3,3] f32: conv 3x3/p1 (x, w) -> relu -> add(relu, y), one
    // iteration on bm1684x (64 lanes, EU 64 B = 16 f32, TIU 1000 MHz, DDR 64 GB/s assumed):
    // tiu = ceil(work / 1024), gdma = ceil(bytes / 64).
    //   conv 64*64*9*256 MACs -> 9216; relu, add 16384 elements -> 16
    //   x, y 65536 B -> 1024; w 147456 B -> 2304; store add 65536 B -> 1024
    // pipelined table (as Timesteps2026Test): R0 conv | add (stage 2); R1 relu | y; R2 add | x, w
    // (stage 0). Slack: R0 9216-1024 = 8192, R1 16-1024 = -1008, R2 16-1024-2304 = -3312.
    // R1: y may go down to row 0 (no earlier reader); profit (min(-1008+1024,0)+1008) +
    //   min(8192-1024,0) = 1008 > 0 -> y to R0; slacks 7168, 16, -3312.
    // R2: x and w may go down to row 1 (conv in R0 reads both); only d = 1 (slack 16):
    //   x: (min(-3312+1024,0)+3312) + min(16-1024,0) = 1024-1008 = 16
    //   w: (min(-3312+2304,0)+3312) + min(16-2304,0) = 2304-2288 = 16
    //   tie: area x = 1024 B/lane * 2 < w = 2304 B/lane * 2 -> x to R1 (slacks 7168, -1008, -2288);
    //   then no row after R2 and R1 has no positive slack: done.
    Graph.Builder b = Graph.builder("prefetch3x3");
    b.input("x", DType.F32, 1, 64, 16, 16);
    b.input("y", DType.F32, 1, 64, 16, 16);
    b.weight("w", DType.F32, 64, 64, 3, 3);
    b.op("conv", OpKind.CONV, GroupFixtures.conv3x3(1), "x", "w");
    b.op("relu", OpKind.RELU, Attributes.empty(), "conv");
    b.op("add", OpKind.ADD, Attributes.empty(), "relu", "y");
    b.output("add");
    Graph g = b.build();
    Chip chip = Chips.get("bm1684x");
    GroupCandidate c =
        GroupCandidate.build(
            "g", g, g.ops(), chip, ShapeSecs.ONE, SliceRules.TODAY, TimestepMethod.get("today"));
    assertThat(c).isInstanceOf(GroupCandidate.Built.class);
    GroupTimesteps t = ((GroupCandidate.Built) c).timesteps();
    assertThat(ids(t, 0)).containsExactly("add", "y");
    assertThat(ids(t, 1)).containsExactly("x");
    assertThat(ids(t, 2)).containsExactly("w");
    assertThat(bytes(t, "x")).isEqualTo(1024);
    assertThat(bytes(t, "w")).isEqualTo(2304);
    // x (stage 0, next iteration) now loads in R1 and is read in R0: wraps 1 -> 0; y lives 0..2
    LmemBufferView x = view(t, "x");
    assertThat(List.of(x.start, x.end)).containsExactly(1, 0);
    LmemBufferView y = view(t, "y");
    assertThat(List.of(y.start, y.end)).containsExactly(0, 2);
    // cost, one iteration = 3 pipeline steps:
    //   step 0 (stage-0 loads): R1 x 1024 + R2 w 2304 = 3328 (before: R2 x+w, gdma(212992) = 3328)
    //   step 1 (TIU, stage 1): R0 max(9216, y 1024) + R1 16 + R2 16 = 9248 (before: 9216 +
    //     max(16, y 1024) + 16 = 10256)
    //   step 2 (stage-2 store): R0 1024
    // total 3328 + 9248 + 1024 = 13600 (before 14608: y's load is hidden under the conv)
    long cycles =
        new RooflineCostModel().group(g, g.ops(), chip, ShapeSecs.ONE, slices(c), t).cycles();
    assertThat(cycles).isEqualTo(13600);
  }

  @Test
  void noMoveWhenItOnlyShiftsTheDeficit() {
    // R0 slack 50 (tiu 50), R1 tiu 90 with load 0 of 100 cycles: slack -10.
    // moving it to R0: (min(-10+100,0)+10) + min(50-100,0) = 10-50 = -40, not positive.
    List<Timestep> rows = List.of(row("a"), row("b", 0));
    List<List<Integer>> out =
        MemoryAwareRebalance.rebalance(rows, new long[] {50, 90}, new long[] {100}, new long[] {4});
    assertThat(out).containsExactly(List.of(), List.of(0));
  }

  @Test
  void theBubbledLoadHandsOverToASmallerLoadOfTheRowItPasses() {
    // tiu R0 1000, R1 100, R2 10; load M (buffer 0, 100 cycles, 2 B) in R1, load L (buffer 1,
    // 50 cycles, 4 B) in R2. Slack 1000, 0, -40.
    // R2: L may go to row 0 (no reader); R1 has no positive slack, R0: profit 40 + 0 -> best R0.
    // bubble: L steps into R1 (slack R1 -50, R2 10); in R1, carrying on gains
    //   M: min(-50+100,0) - min(-50,0) + min(1000-100,0) = 50
    //   L: min(-50+50,0)  - min(-50,0) + min(1000-50,0)  = 50
    //   equal, and M's buffer is the smaller (2 < 4 B): M goes on to R0, L stays in R1.
    List<Timestep> rows = List.of(row("a"), row("b", 0), row("c", 1));
    List<List<Integer>> out =
        MemoryAwareRebalance.rebalance(
            rows, new long[] {1000, 100, 10}, new long[] {100, 50}, new long[] {2, 4});
    assertThat(out).containsExactly(List.of(0), List.of(1), List.of());
  }

  @Test
  void aStoreSkipsRowsWhereTheNpuAccessesIt() {
    // store S (buffer 0, 60 cycles) of a value computed in R0 sits in R1 (tiu 10: slack -50);
    // R2's op reads S (skipped), R3 has slack 100: profit 50 + min(100-60,0) = 50 -> R3.
    // bubbling passes R2 carrying S unchanged (the NPU accesses it there).
    Timestep r0 =
        new Timestep(List.of(new Timestep.TiuOp("p", List.of(), List.of(0), List.of())), List.of());
    Timestep r2 =
        new Timestep(List.of(new Timestep.TiuOp("u", List.of(0), List.of(), List.of())), List.of());
    List<Timestep> rows = List.of(r0, row("b", 0), r2, row("d"));
    List<List<Integer>> out =
        MemoryAwareRebalance.rebalance(
            rows, new long[] {0, 10, 1000, 100}, new long[] {60}, new long[] {4});
    assertThat(out).containsExactly(List.of(), List.of(), List.of(), List.of(0));
  }

  private record LmemBufferView(int start, int end) {}

  private static LmemBufferView view(GroupTimesteps t, String id) {
    var b = t.lmem().buffers().stream().filter(x -> x.id().equals(id)).findFirst().orElseThrow();
    return new LmemBufferView(b.start(), b.end());
  }

  private static long bytes(GroupTimesteps t, String id) {
    return t.lmem().buffers().stream()
        .filter(x -> x.id().equals(id))
        .findFirst()
        .orElseThrow()
        .bytes();
  }

  private static List<String> ids(GroupTimesteps t, int row) {
    return t.lmem().timesteps().get(row).gdma().stream()
        .map(i -> t.lmem().buffers().get(i).id())
        .toList();
  }

  private static java.util.Map<String, SliceInfo> slices(GroupCandidate c) {
    return ((GroupCandidate.Built) c).slices().slices();
  }
}
