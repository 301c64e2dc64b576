package io.github.memplan.datasets.darknet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.ir.Attr;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Macs;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Role;
import io.github.memplan.core.ir.Shape;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Small cfgs whose every size and parameter count is worked out by hand in the comments. */
class DarknetImporterTest {
  static DarknetNetwork net(String text) {
    return DarknetImporter.build(DarknetCfg.parse("t.cfg", text), "t", 1);
  }

  static Shape shape(DarknetNetwork n, int layer) {
    return n.graph().tensor(n.layers().get(layer).output()).shape();
  }

  static List<String> kinds(Graph g) {
    return g.ops().stream().map(o -> o.kind().onnxName()).toList();
  }

  static final String YOLO_LIKE =
      """
      [net]
      batch=64
      subdivisions=16
      width=14
      height=14
      channels=3

      # 0: 3x3 conv, BN, leaky: 14x14x8
      [convolutional]
      batch_normalize=1
      filters=8
      size=3
      stride=1
      pad=1
      activation=leaky

      # 1: padding defaults to size-1 = 1: (14 + 1 - 2)/2 + 1 = 7
      [maxpool]
      size=2
      stride=2

      # 2: (7 + 1 - 2)/1 + 1 = 7
      [maxpool]
      size=2
      stride=1

      # 3: 3 masks x (2 classes + 5) = 21 filters
      [convolutional]
      size=1
      stride=1
      pad=1
      filters=21
      activation=linear

      [yolo]
      mask = 0,1,2
      anchors = 10,14,  23,27,  37,58,  81,82,  135,169,  344,319
      classes=2
      num=6

      # 5: layer 1, 7x7x8
      [route]
      layers = -4

      # 6: 14x14x8
      [upsample]
      stride=2

      # 7: 14x14x(8 + 8)
      [route]
      layers = -1, 0
      """;

  @Test
  void yoloLikeNetworkFollowsDarknetsSizeRules() {
    DarknetNetwork n = net(YOLO_LIKE);
    assertThat(n.layers()).hasSize(8);
    assertThat(shape(n, 0)).isEqualTo(Shape.of(1, 8, 14, 14));
    assertThat(shape(n, 1)).isEqualTo(Shape.of(1, 8, 7, 7));
    assertThat(shape(n, 2)).isEqualTo(Shape.of(1, 8, 7, 7));
    assertThat(shape(n, 3)).isEqualTo(Shape.of(1, 21, 7, 7));
    assertThat(n.layers().get(4).output()).isEqualTo("l3.conv");
    assertThat(n.layers().get(5).output()).isEqualTo("l1.maxpool");
    assertThat(shape(n, 6)).isEqualTo(Shape.of(1, 8, 14, 14));
    assertThat(shape(n, 7)).isEqualTo(Shape.of(1, 16, 14, 14));
    assertThat(n.layers().get(7).inputs()).containsExactly("l6.upsample", "l0.leaky");

    Graph g = n.graph();
    assertThat(g.name()).isEqualTo("t");
    assertThat(g.inputs()).containsExactly("input");
    assertThat(g.tensor("input").shape()).isEqualTo(Shape.of(1, 3, 14, 14));
    assertThat(g.outputs()).containsExactly("l3.conv", "l7.concat");
    assertThat(kinds(g))
        .containsExactly(
            "Conv",
            "BatchNormalization",
            "LeakyRelu",
            "MaxPool",
            "MaxPool",
            "Conv",
            "Resize",
            "Concat");
    // padding 1 of a 2x2 window: none before, one after (darknet starts at -padding/2)
    assertThat(g.op("l1.maxpool").attributes().getInts("pads", null)).containsExactly(0, 0, 1, 1);
    assertThat(g.op("l0.leaky").attributes().getFloat("alpha", 0)).isEqualTo(0.1);
    // conv0: 8x3x3x3 weights + 8 scales + 8 biases; conv3: 21x8 weights + 21 biases
    assertThat(g.parameterCount()).isEqualTo(216 + 8 + 8 + 168 + 21);
    assertThat(g.tensor("l0.rolling_mean").role()).isEqualTo(Role.CONSTANT);
    assertThat(g.tensor("l0.weights").shape()).isEqualTo(Shape.of(8, 3, 3, 3));
    // MACs: 14*14*8 outputs x 27 + 7*7*21 outputs x 8
    assertThat(Macs.of(g)).isEqualTo(14 * 14 * 8 * 27 + 7 * 7 * 21 * 8);
  }

  @Test
  void batchIsOneUnlessAskedAndCfgBatchIsBatchOverSubdivisions() {
    DarknetCfg cfg = DarknetCfg.parse("t.cfg", YOLO_LIKE);
    assertThat(DarknetImporter.cfgBatch(cfg)).isEqualTo(4);
    DarknetNetwork four = DarknetImporter.build(cfg, "t", 4);
    assertThat(shape(four, 7)).isEqualTo(Shape.of(4, 16, 14, 14));
    assertThat(Macs.of(four.graph())).isEqualTo(4 * Macs.of(net(YOLO_LIKE).graph()));
  }

  @Test
  void shortcutOfDifferentShapesSubsamplesAndPadsLikeShortcutCpu() {
    DarknetNetwork n =
        net(
            """
            [net]
            width=8
            height=8
            channels=4

            [maxpool]
            size=1
            stride=1

            [convolutional]
            filters=8
            size=3
            stride=2
            pad=1
            activation=linear

            [shortcut]
            from=-2
            activation=leaky
            """);
    // layer 0: padding size-1 = 0 -> 8x8x4; layer 1: (8 + 2 - 3)/2 + 1 = 4 -> 4x4x8
    assertThat(shape(n, 1)).isEqualTo(Shape.of(1, 8, 4, 4));
    assertThat(shape(n, 2)).isEqualTo(Shape.of(1, 8, 4, 4));
    Graph g = n.graph();
    assertThat(kinds(g)).containsExactly("MaxPool", "Conv", "Slice", "Pad", "Add", "LeakyRelu");
    // stride w1/w2 = 2: rows 0, 2, 4, 6 of the 4 channels, then 4 zero channels
    Op slice = g.op("l2.slice");
    assertThat(slice.attributes().getInts("ends", null)).containsExactly(4, 7, 7);
    assertThat(slice.attributes().getInts("steps", null)).containsExactly(1, 2, 2);
    assertThat(g.tensor("l2.slice").shape()).isEqualTo(Shape.of(1, 4, 4, 4));
    assertThat(g.op("l2.pad").attributes().getInts("pads", null))
        .containsExactly(0, 0, 0, 0, 0, 4, 0, 0);
    assertThat(g.op("l2.add").inputs()).containsExactly("l1.conv", "l2.pad");
    assertThat(n.layers().get(2).inputs()).containsExactly("l1.conv", "l0.maxpool");
  }

  @Test
  void classifierLayers() {
    DarknetNetwork n =
        net(
            """
            [net]
            width=6
            height=6
            channels=2

            [crop]
            crop_height=4
            crop_width=4

            [local]
            size=3
            stride=1
            pad=1
            filters=3
            activation=leaky

            [reorg]
            stride=2

            [avgpool]

            [connected]
            output=5
            activation=linear

            [dropout]
            probability=.5

            [softmax]
            groups=1

            [cost]
            type=sse
            """);
    // crop: centre 4x4 of 6x6 starting at (1, 1)
    assertThat(shape(n, 0)).isEqualTo(Shape.of(1, 2, 4, 4));
    assertThat(n.graph().op("l0.crop").attributes().getInts("starts", null)).containsExactly(1, 1);
    // local: (4 - 1)/1 + 1 = 4; reorg /2: 2x2x12; avgpool: 12; connected: 5
    assertThat(shape(n, 1)).isEqualTo(Shape.of(1, 3, 4, 4));
    assertThat(shape(n, 2)).isEqualTo(Shape.of(1, 12, 2, 2));
    assertThat(shape(n, 3)).isEqualTo(Shape.of(1, 12, 1, 1));
    assertThat(shape(n, 4)).isEqualTo(Shape.of(1, 5));
    assertThat(n.layers().get(5).output()).isEqualTo("l4.gemm");
    assertThat(shape(n, 6)).isEqualTo(Shape.of(1, 5));
    assertThat(n.layers().get(7).output()).isEqualTo("l6.softmax");
    Graph g = n.graph();
    assertThat(g.outputs()).containsExactly("l6.softmax");
    // local: 16 locations x (2*3*3) x 3 weights + 3x4x4 biases; connected: 5x12 + 5
    assertThat(g.tensor("l1.weights").shape()).isEqualTo(Shape.of(16, 18, 3));
    assertThat(g.parameterCount()).isEqualTo(16 * 18 * 3 + 48 + 60 + 5);
    // local: 16 locations x 3 filters x 18; connected: 5 x 12
    assertThat(Macs.of(g)).isEqualTo(16 * 3 * 18 + 5 * 12);
    assertThat(g.op("l4.gemm").attributes().getInt("transB", 0)).isEqualTo(1);
  }

  @Test
  void recurrentCellsAreOneStepWithTheStateAsAnInput() {
    DarknetNetwork rnn =
        net(
            """
            [net]
            inputs=4
            time_steps=1

            [rnn]
            output=3
            hidden=99
            activation=leaky
            """);
    Graph g = rnn.graph();
    assertThat(g.inputs()).containsExactly("input", "l0.state");
    assertThat(g.tensor("input").shape()).isEqualTo(Shape.of(1, 4));
    // input layer 4->3, self and output layers 3->3, each with biases ('hidden' is unused)
    assertThat(g.parameterCount()).isEqualTo((12 + 3) + (9 + 3) + (9 + 3));
    assertThat(g.outputs()).containsExactly("l0.state_next", "l0.output.leaky");
    assertThat(shape(rnn, 0)).isEqualTo(Shape.of(1, 3));

    DarknetNetwork gru =
        net(
            """
            [net]
            inputs=4

            [gru]
            output=3
            """);
    // uz, ur, uh: 4->3; wz, wr, wh: 3->3
    assertThat(gru.graph().parameterCount()).isEqualTo(3 * (12 + 3) + 3 * (9 + 3));
    assertThat(gru.graph().op("l0.h").kind()).isEqualTo(OpKind.SIGMOID);
    assertThat(shape(gru, 0)).isEqualTo(Shape.of(1, 3));
  }

  @Test
  void routeGroupsAndFlatConcatenation() {
    DarknetNetwork n =
        net(
            """
            [net]
            width=4
            height=4
            channels=6

            [maxpool]
            size=1
            stride=1

            [route]
            layers=-1
            groups=2
            group_id=1

            [maxpool]
            size=2
            stride=2

            [route]
            layers=-1,-3
            """);
    // group 1 of 2 of 6 channels: channels [3, 6)
    assertThat(shape(n, 1)).isEqualTo(Shape.of(1, 3, 4, 4));
    assertThat(n.graph().op("l1.slice0").attributes().getInts("starts", null)).containsExactly(3);
    // 2x2x3 and 4x4x6 differ in size: darknet concatenates them flat, 12 + 96
    assertThat(shape(n, 2)).isEqualTo(Shape.of(1, 3, 2, 2));
    assertThat(shape(n, 3)).isEqualTo(Shape.of(1, 108));
  }

  @Test
  void activationsWithoutASingleOp() {
    DarknetNetwork n =
        net(
            """
            [net]
            width=2
            height=2
            channels=1

            [convolutional]
            filters=1
            activation=ramp

            [convolutional]
            filters=1
            activation=mish

            [convolutional]
            filters=1
            activation=swish
            """);
    Graph g = n.graph();
    assertThat(kinds(g))
        .containsExactly(
            "Conv", "LeakyRelu", "Mul", "Conv", "Exp", "Add", "Log", "Tanh", "Mul", "Conv", "Silu");
    assertThat(g.op("l0.ramp").attributes().get("alpha")).contains(Attr.of(1.0 / 11));
    assertThat(g.tensor("one").role()).isEqualTo(Role.CONSTANT);
    assertThat(g.tensor("ramp_scale").shape().rank()).isZero();
  }

  @Test
  void errorsNameTheFileLineAndSection() {
    assertThatThrownBy(() -> net("[net]\nwidth=4\nheight=4\nchannels=1\n\n[foo]\nx=1\n"))
        .hasMessage("t.cfg:6: [foo]: unknown section type");
    assertThatThrownBy(
            () -> net("[net]\nwidth=4\nheight=4\nchannels=1\n[convolutional]\nactivation=elu\n"))
        .hasMessageStartingWith("t.cfg:6: [convolutional] activation: activation 'elu' is not");
    assertThatThrownBy(() -> net("[convolutional]\nfilters=1\n"))
        .hasMessage("t.cfg:1: [convolutional]: the first section must be [net] or [network]");
    assertThatThrownBy(
            () -> net("[net]\nwidth=4\nheight=4\nchannels=1\n[maxpool]\n[route]\nlayers=1\n"))
        .hasMessage("t.cfg:7: [route] layers: layer 1 (absolute 1) is not an earlier layer of 1");
    assertThatThrownBy(
            () ->
                net(
                    "[net]\nwidth=4\nheight=4\nchannels=1\n[convolutional]\nfilters=20\n"
                        + "[yolo]\nmask=0,1,2\nclasses=2\n"))
        .hasMessage(
            "t.cfg:7: [yolo]: the previous layer's output 1x20x4x4 should have mask count 3 x"
                + " (classes 2 + 5) = 21 channels");
    // shape inference failures keep the op and gain the section
    assertThatThrownBy(
            () -> net("[net]\nwidth=4\nheight=4\nchannels=1\n\n[convolutional]\nsize=9\n"))
        .hasMessageStartingWith("t.cfg:6: [convolutional] (layer 0): 'l0.conv' (Conv): ")
        .hasMessageNotContaining("\n");
    assertThatThrownBy(() -> net("[net]\nchannels=3\n[maxpool]\n"))
        .hasMessage("t.cfg:1: [net]: no input size: give width, height and channels, or inputs");
    assertThatThrownBy(() -> net("[net]\nwidth=4\nheight=4\nchannels=1\n[lstm]\n"))
        .hasMessage("t.cfg:5: [lstm]: darknet layer type not supported by this importer");
    // a [local] layer's im2col is size x size Slice ops: a kernel beyond 32 is refused before any
    // op is made (found by fuzzing: size 511 on a padded 448x448 input made 261,121 ops)
    assertThatThrownBy(
            () -> net("[net]\nwidth=64\nheight=64\nchannels=1\n[local]\nsize=33\npad=1\n"))
        .hasMessageStartingWith("t.cfg:6: [local] size: size 33 is more than memplan expands")
        .hasMessageNotContaining("\n");
  }
}
