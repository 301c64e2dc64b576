package io.github.memplan.datasets.zoo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Macs;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.Role;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** MAC counts of the zoo against the papers' published figures. */
class MacsTest {
  private static long macs(Graph g, Predicate<Op> which) {
    return g.ops().stream().filter(which).mapToLong(op -> Macs.of(g, op)).sum();
  }

  @Test
  void resnet18IsAbout1Point8GMacs() {
    // He et al. 2016, Table 1: 1.8 x 10^9 FLOPs (multiply-adds); torchvision reports 1.814 GMACs
    assertThat((double) Macs.of(new ResNet18().build())).isCloseTo(1.814e9, within(0.01e9));
  }

  @Test
  void mobilenetV2IsAbout300MMadds() {
    // Sandler et al. 2018, Table 4: 300M multiply-adds at 224x224, width 1.0
    assertThat((double) Macs.of(new MobileNetV2().build())).isCloseTo(300e6, within(6e6));
  }

  @Test
  void bertBaseIsAbout11Point2GMacsAt128Tokens() {
    // the commonly quoted ~11.2 GMACs: 128 tokens x 12 layers x (4*768^2 + 2*768*3072) in the
    // linear layers, plus 12 x 2 x 128^2 x 768 in the attention products and the pooler
    Graph g = new BertBase().build();
    assertThat((double) Macs.of(g)).isCloseTo(11.2e9, withinPercentage(1));
    long linear = 128L * 12 * (4 * 768 * 768 + 2 * 768 * 3072);
    long attention = 12L * 2 * 128 * 128 * 768;
    assertThat(Macs.of(g)).isEqualTo(linear + attention + 768L * 768);
  }

  @Test
  void vitB16IsAbout17Point6GMacs() {
    // the 17.6 G multiply-adds quoted for ViT-B/16 at 224x224 (197 tokens)
    assertThat((double) Macs.of(new VitB16().build())).isCloseTo(17.6e9, withinPercentage(1));
  }

  @Test
  void gpt2Is85MMacsPerTokenInTheBlocksPlus39MForTheHeadPlusAttention() {
    Graph g = new Gpt2().build();
    long tokens = 1024;
    // the blocks' linear layers: 12 layers x 12 d^2 = 84.9M per token ("~85M", N of Kaplan et
    // al. 2020, Table 1)
    long blocks = macs(g, op -> op.name().startsWith("transformer.h.") && hasWeight(g, op));
    assertThat((double) blocks / tokens).isCloseTo(85e6, withinPercentage(1));
    // the tied head: d x vocab = 38.6M per token, the "39M" to two figures
    long head = macs(g, op -> op.name().equals("lm_head"));
    assertThat((double) head / tokens).isCloseTo(39e6, within(0.5e6));
    // attention: QK^T and probs x V over all 1024 positions (the causal mask is added, nothing is
    // skipped): 2 x 12 layers x 1024^2 x 768
    long attention = macs(g, op -> op.name().endsWith(".scores") || op.name().endsWith(".context"));
    assertThat(attention).isEqualTo(2L * 12 * tokens * tokens * 768);
    assertThat(Macs.of(g)).isEqualTo(blocks + head + attention);
  }

  private static boolean hasWeight(Graph g, Op op) {
    return op.inputs().stream().anyMatch(t -> g.tensor(t).role() == Role.WEIGHT);
  }
}
