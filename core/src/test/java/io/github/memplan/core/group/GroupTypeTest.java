package io.github.memplan.core.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Shape;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Group types (GroupMethod.cpp set_group_type, group_type_check; Module.cpp getNCHW) and C splits
 * (LayerGroupUtil.cpp get_group_max_secs, get_out_slice_info) on bm1684x (64 lanes, EU 64 B: 32 f16
 * elements; 2048 f16 element ops per TIU cycle).
 */
class GroupTypeTest {
  private static final Chip BM1684X = Chips.get("bm1684x");

  /** x[1,256,64] f16 → LayerNorm (last axis) → Add (+ bias b[64]) → MatMul by y[1,64,32] f16. */
  static Graph layerNormAddMatMul() {
    Graph.Builder b = Graph.builder("lnmm");
    b.input("x", DType.F16, 1, 256, 64);
    b.input("y", DType.F16, 1, 64, 32);
    b.weight("g", DType.F16, 64);
    b.weight("bias", DType.F16, 64);
    b.op("ln", OpKind.LAYER_NORMALIZATION, Attributes.builder().put("axis", -1).build(), "x", "g");
    b.op("add", OpKind.ADD, Attributes.empty(), "ln", "bias");
    b.op("mm", OpKind.MAT_MUL, Attributes.empty(), "add", "y");
    b.output("mm");
    return b.build();
  }

  /** x[1,12,100,64] f16 → Sigmoid → Mul by x: SiLU with few channels. */
  static Graph smallCSilu() {
    Graph.Builder b = Graph.builder("silu");
    b.input("x", DType.F16, 1, 12, 100, 64);
    b.op("sig", OpKind.SIGMOID, Attributes.empty(), "x");
    b.op("mul", OpKind.MUL, Attributes.empty(), "sig", "x");
    b.output("mul");
    return b.build();
  }

  @Test
  void setGroupTypeFollowsTheOpListsAndTheShapes() {
    Graph mm = layerNormAddMatMul();
    // 3-D shapes never pass can_be_group_small_c's last check (unless s0 > 4 and s1 == 197); all
    // three ops are in can_be_group_mm's list (LayerNorm on the last axis, Add, MatMul)
    assertThat(GroupType.of(mm, mm.ops(), BM1684X)).isEqualTo(GroupType.MM);
    // one op is never typed; CV18xx and BM1684 have GROUP_NORMAL only
    assertThat(GroupType.of(mm, mm.ops().subList(0, 1), BM1684X)).isEqualTo(GroupType.NORMAL);
    assertThat(GroupType.of(mm, mm.ops(), Chips.get("bm1684"))).isEqualTo(GroupType.NORMAL);
    // Sigmoid (Active) and Mul of two [1,12,100,64]: 1·12·100 = 1200 is no multiple of 64, but
    // H 100 > C 12 and C < 64 / 2: SMALL_C
    Graph silu = smallCSilu();
    assertThat(GroupType.of(silu, silu.ops(), BM1684X)).isEqualTo(GroupType.SMALL_C);
    // a Conv is in neither list
    Graph conv = GroupFixtures.convRelu();
    assertThat(GroupType.of(conv, conv.ops(), BM1684X)).isEqualTo(GroupType.NORMAL);
    // Sub of two activations is an Ar op (SMALL_C list) but not in the MM list: on 3-D shapes
    // neither type
    Graph.Builder b = Graph.builder("sub");
    b.input("x", DType.F16, 1, 128, 768);
    b.op("sig", OpKind.SIGMOID, Attributes.empty(), "x");
    b.op("sub", OpKind.SUB, Attributes.empty(), "sig", "x");
    Graph sub = b.output("sub").build();
    assertThat(GroupType.of(sub, sub.ops(), BM1684X)).isEqualTo(GroupType.NORMAL);
  }

  @Test
  void smallCMovesHOntoTheLanes() {
    // {n·c, h, w, 1}, or {n·c·h / 64, 64, w, 1} when 64 divides n·c·h
    assertThat(GroupType.SMALL_C.view(Shape.of(1, 12, 100, 64), BM1684X))
        .isEqualTo(new Nchw(12, 100, 64, 1));
    assertThat(GroupType.SMALL_C.view(Shape.of(1, 12, 128, 64), BM1684X))
        .isEqualTo(new Nchw(24, 64, 64, 1));
    assertThat(GroupType.SMALL_C.view(Shape.of(2, 128, 768), BM1684X))
        .isEqualTo(new Nchw(1, 256, 768, 1));
    assertThat(GroupType.SMALL_C.view(Shape.of(768, 512), BM1684X))
        .isEqualTo(new Nchw(1, 768, 512, 1));
    assertThat(GroupType.SMALL_C.view(Shape.of(768), BM1684X)).isEqualTo(new Nchw(1, 1, 768, 1));
    assertThat(GroupType.MM.view(Shape.of(1, 12, 100, 64), BM1684X))
        .isEqualTo(new Nchw(1, 12, 100, 64));
  }

  @Test
  void smallCSlicesAndSizesTheViewAndTheCostModelCountsElements() {
    Graph g = smallCSilu();
    // max: n' 12 (x's view), c' ceil(100 / 64) = 2, h' 64 (both ops split it), w' 1
    ShapeSecs max = ShapeSecsBounds.maxSecs(g, g.ops(), BM1684X);
    assertThat(max).isEqualTo(new ShapeSecs(12, 2, 64, 1));
    // n2: rows 0..5 and 6..11 of the view, C (H of the tensor) whole
    GroupCandidate.Built b =
        (GroupCandidate.Built)
            GroupCandidate.build(
                "g",
                g,
                g.ops(),
                BM1684X,
                new ShapeSecs(2, 1, 1, 1),
                SliceRules.TODAY,
                new Timesteps2026());
    SliceInfo x = b.slices().slices().get("x");
    assertThat(x.n()).containsExactly(new Range(0, 6), new Range(6, 6));
    assertThat(x.c()).containsExactly(new Range(0, 100));
    assertThat(x.h()).containsExactly(new Range(0, 64));
    // per lane: 6 · ceil(100 / 64) · align(64, 32) · 2 B = 1536 B; the NORMAL layout of the same
    // slice would be 1 · ceil(12 / 64) · align(100 · 64, 32) · 2 = 12800 B for the whole tensor
    assertThat(b.timesteps().lmem().buffers())
        .filteredOn(buf -> buf.id().equals("x"))
        .singleElement()
        .satisfies(buf -> assertThat(buf.bytes()).isEqualTo(1536));
    // each iteration computes half of sig: 38400 element ops / 2048 per cycle = 18.75 -> 19
    var terms =
        new RooflineCostModel()
            .terms(
                g, g.ops(), BM1684X, new ShapeSecs(2, 1, 1, 1), b.slices().slices(), b.timesteps());
    long sigCycles = 0;
    for (int r = 0; r < b.timesteps().lmem().timesteps().size(); r++) {
      var tiu = b.timesteps().lmem().timesteps().get(r).tiu();
      if (!tiu.isEmpty() && tiu.get(0).op().equals("sig")) {
        sigCycles = terms.tiu()[r][1];
      }
    }
    assertThat(sigCycles).isEqualTo(19);
  }

  @Test
  void mmGroupsSplitCInUnitsOfNpuChannelsAndReadTheRightMatrixWhole() {
    Graph g = layerNormAddMatMul();
    // max: n 1; c ceil(256 / 64) = 4 (every op splits C); h 1 (LayerNorm's axis is H); w 1
    assertThat(ShapeSecsBounds.maxSecs(g, g.ops(), BM1684X)).isEqualTo(new ShapeSecs(1, 4, 1, 1));
    // csecs 3: 4 units of 64 channels shared 2, 1, 1
    assertThat(Slicing.channelSlices(256, 3, 64))
        .containsExactly(new Range(0, 128), new Range(128, 64), new Range(192, 64));
    assertThat(Slicing.channelSlices(256, 2, 64))
        .containsExactly(new Range(0, 128), new Range(128, 128));
    assertThat(Slicing.channelSlices(100, 1, 64)).containsExactly(new Range(0, 100));
    // csecs 5 would start a slice at channel 256: refused
    assertThat(Slicing.channelSlices(256, 5, 64)).isEmpty();
    var s =
        ((SliceResult.Sliced)
                Slicing.slice(g, g.ops(), BM1684X, new ShapeSecs(1, 2, 1, 1), SliceRules.TODAY))
            .slices();
    // BackwardC is the identity through the MatMul's left operand, the Add and the LayerNorm
    assertThat(s.get("x").c()).containsExactly(new Range(0, 128), new Range(128, 128));
    assertThat(s.get("add").c()).containsExactly(new Range(0, 128), new Range(128, 128));
    // the right matrix y [1,64,32] is read whole by every C slice
    assertThat(s.get("y").c()).containsExactly(new Range(0, 64), new Range(0, 64));
    // v0's rules know no group types: C does not split
    assertThat(Slicing.slice(g, g.ops(), BM1684X, new ShapeSecs(1, 2, 1, 1), SliceRules.V0))
        .isInstanceOf(SliceResult.Failed.class);
    // init_group_data_secs (per lane): ln needs x 1 · 4 · 64 · 2 = 512 + out 512 + g 2 B -> 1
    // sec: csecs ceil(4 / (4 / 1)) = 1; the group fits unsplit
    assertThat(
            ShapeSecsBounds.initialSecs(
                g, g.ops(), BM1684X, ShapeSecsBounds.maxSecs(g, g.ops(), BM1684X)))
        .contains(ShapeSecs.ONE);
  }

  /** a[1,4,128,64] f16 by w[64,32] → {@code next}. */
  private static Graph matMul4x2Then(OpKind next) {
    Graph.Builder b = Graph.builder("mm4x2");
    b.input("a", DType.F16, 1, 4, 128, 64);
    b.weight("w", DType.F16, 64, 32);
    b.op("mm", OpKind.MAT_MUL, Attributes.empty(), "a", "w");
    b.op("next", next, Attributes.empty(), "mm");
    return b.output("next").build();
  }

  @Test
  void matMulsLocalShapesAreTheSourcesAndTheSmallCOneNeedsASmallCGroup() {
    // MatMulOp::LocalGenSupport: 4-D (C < H) x 2-D; 3-D x 3-D; 4-D x 4-D only with hdim_is_batch
    assertThat(OpSemantics.matMulShapeWhyGlobal(Shape.of(1, 4, 128, 64), Shape.of(64, 32)))
        .isNull();
    assertThat(OpSemantics.matMulShapeWhyGlobal(Shape.of(1, 128, 64), Shape.of(1, 64, 32)))
        .isNull();
    assertThat(OpSemantics.matMulShapeWhyGlobal(Shape.of(4, 128, 64), Shape.of(4, 64, 32)))
        .isNull();
    assertThat(OpSemantics.matMulShapeWhyGlobal(Shape.of(1, 128, 64), Shape.of(64, 32)))
        .contains("3-D by a 2-D");
    assertThat(OpSemantics.matMulShapeWhyGlobal(Shape.of(1, 128, 4, 64), Shape.of(64, 32)))
        .contains("4-D by a 2-D"); // C 128 >= H 4
    assertThat(OpSemantics.matMulShapeWhyGlobal(Shape.of(1, 12, 128, 64), Shape.of(1, 12, 64, 128)))
        .contains("hdim_is_batch");
    assertThat(OpSemantics.matMulShapeWhyGlobal(Shape.of(128, 64), Shape.of(64, 32)))
        .contains("2-D by a 2-D");
    // group_type_check: the 4-D x 2-D MatMul followed by a Relu (in neither list) is NORMAL
    Graph g = matMul4x2Then(OpKind.RELU);
    assertThat(GroupType.of(g, g.ops(), BM1684X)).isEqualTo(GroupType.NORMAL);
    SliceResult r = Slicing.slice(g, g.ops(), BM1684X, ShapeSecs.ONE, SliceRules.TODAY);
    assertThat(r).isInstanceOf(SliceResult.Failed.class);
    assertThat(((SliceResult.Failed) r).reason()).contains("needs a GROUP_SMALL_C group");
    // with a Sigmoid instead it is a SMALL_C group (C 4 < 32, H 128 > 4), and slices
    Graph h = matMul4x2Then(OpKind.SIGMOID);
    assertThat(GroupType.of(h, h.ops(), BM1684X)).isEqualTo(GroupType.SMALL_C);
    assertThat(Slicing.slice(h, h.ops(), BM1684X, ShapeSecs.ONE, SliceRules.TODAY))
        .isInstanceOf(SliceResult.Sliced.class);
    assertThat(List.of(GroupType.mayJoinMm(h, h.op("mm"), BM1684X))).containsExactly(true);
  }
}
