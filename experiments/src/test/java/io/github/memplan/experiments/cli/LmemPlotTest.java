package io.github.memplan.experiments.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemBuffer.Kind;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.lmem.LmemValidator;
import io.github.memplan.core.lmem.Timestep;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class LmemPlotTest {

  /**
   * 128 bytes, 2 banks of 64; row 0 loads x, row 1 runs op(x) -> y while loading z, row 2 stores y.
   * w is held; s wraps (rows 2 and 0) and straddles [56, 72); z shares bank 0 with x: one conflict.
   */
  static LmemInstance instance() {
    return new LmemInstance(
        "plot & <test>",
        128,
        2,
        64,
        8,
        List.of(
            new LmemBuffer("x", Kind.ACTIVATION, 0, 1, 32, false),
            new LmemBuffer("y", Kind.ACTIVATION, 1, 2, 32, false),
            new LmemBuffer("z", Kind.ACTIVATION, 1, 1, 32, false),
            new LmemBuffer("w", Kind.WEIGHT, 0, 0, 16, true),
            new LmemBuffer("s", Kind.SCRATCH, 2, 0, 16, false)),
        List.of(
            new Timestep(List.of(), List.of(0)),
            new Timestep(
                List.of(new Timestep.TiuOp("op", List.of(0), List.of(1), List.of())), List.of(2)),
            new Timestep(List.of(), List.of(1))),
        List.of());
  }

  static final LmemSolution SOLUTION = new LmemSolution(new long[] {0, 80, 32, 112, 56});

  private static int count(Document d, String cls) {
    NodeList rects = d.getElementsByTagName("rect");
    int n = 0;
    for (int i = 0; i < rects.getLength(); i++) {
      if (cls.equals(((Element) rects.item(i)).getAttribute("class"))) {
        n++;
      }
    }
    return n;
  }

  @Test
  void wellFormedWithOneShapePerLiveRangeAndMarks() throws Exception {
    LmemInstance inst = instance();
    assertThat(new LmemValidator().validate(inst, SOLUTION)).isEmpty();
    String svg = LmemPlot.svg(inst, SOLUTION);
    Document d =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    assertThat(d.getDocumentElement().getTagName()).isEqualTo("svg");
    // x, y, z, w (held: one across all rows) one each; s wraps: two
    assertThat(count(d, "buffer")).isEqualTo(6);
    assertThat(count(d, "straddle")).isEqualTo(2);
    assertThat(count(d, "conflict")).isEqualTo(2); // x and z, outlined in row 1
    assertThat(count(d, "bank")).isEqualTo(2);
    assertThat(svg).contains("1 bank conflicts, 1 straddles").contains("plot &amp; &lt;test&gt;");
  }
}
