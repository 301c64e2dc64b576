package io.github.memplan.datasets.darknet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.datasets.darknet.DarknetCfg.Section;
import org.junit.jupiter.api.Test;

class DarknetCfgTest {
  @Test
  void readsLikeDarknetsReadCfg() {
    DarknetCfg cfg =
        DarknetCfg.parse(
            "x.cfg",
            """
            # a comment
            [net]
            batch = 64
            ; another comment
              width=416\t

            [Convolutional]
            filters=255#comment
            filters=1
            stride=-2
            scale=.5e1
            layers = -1, 61
            """);
    assertThat(cfg.sections()).hasSize(2);
    Section net = cfg.sections().get(0);
    assertThat(net.type()).isEqualTo("net");
    assertThat(net.line()).isEqualTo(2);
    assertThat(net.integer("batch")).isEqualTo(64);
    assertThat(net.integer("width", 0)).isEqualTo(416);
    assertThat(net.integer("height", 7)).isEqualTo(7);
    Section conv = cfg.sections().get(1);
    assertThat(conv.type()).isEqualTo("convolutional");
    assertThat(conv.line()).isEqualTo(7);
    // atoi reads the numeric prefix; the first of two values wins, as in option_find
    assertThat(conv.integer("filters")).isEqualTo(255);
    assertThat(conv.integer("stride")).isEqualTo(-2);
    assertThat(conv.real("scale", 0)).isEqualTo(5.0);
    assertThat(conv.integers("layers")).containsExactly(-1, 61);
    assertThat(conv.find("layers").line()).isEqualTo(12);
  }

  @Test
  void malformedLinesAreNamed() {
    assertThatThrownBy(() -> DarknetCfg.parse("x.cfg", "[net]\nwidth 416\n"))
        .hasMessage("x.cfg:2: expected key=value or [section], got 'width416'");
    assertThatThrownBy(() -> DarknetCfg.parse("x.cfg", "width=1\n[net]\n"))
        .hasMessage("x.cfg:1: option 'width=1' before the first [section]");
    assertThatThrownBy(() -> DarknetCfg.parse("x.cfg", "\n[net\n"))
        .hasMessage("x.cfg:2: section header '[net' has no closing ']'");
    assertThatThrownBy(() -> DarknetCfg.parse("x.cfg", "# nothing\n"))
        .hasMessage("x.cfg:1: no sections (is this a darknet .cfg?)");
    Section s = DarknetCfg.parse("x.cfg", "[net]\n\nwidth=abc\n").sections().get(0);
    assertThatThrownBy(() -> s.integer("width", 0))
        .hasMessage("x.cfg:3: [net] width: 'abc' is not an integer");
    assertThatThrownBy(() -> s.integer("height"))
        .hasMessage("x.cfg:1: [net]: option 'height' is required");
  }
}
