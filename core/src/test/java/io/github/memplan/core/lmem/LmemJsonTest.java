package io.github.memplan.core.lmem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LmemJsonTest {

  @Test
  void roundTripIsLossless(@TempDir Path dir) throws Exception {
    for (boolean sliced : new boolean[] {false, true}) {
      for (boolean pipelined : new boolean[] {false, true}) {
        LmemInstance inst =
            LmemGenerator.generate("g", 7, 9, LmemGenerator.SMALL, sliced, pipelined, 0.6);
        LmemSolution sol = new LmemSolution(new long[inst.buffers().size()]);
        Path f = dir.resolve("g.json");
        LmemJson.write(f, inst, sol);
        LmemJson.Read back = LmemJson.read(f);
        assertThat(back.instance()).isEqualTo(inst);
        assertThat(back.solution()).contains(sol);
        assertThat(LmemJson.toJson(back.instance(), null)).isEqualTo(LmemJson.toJson(inst, null));
        assertThat(LmemJson.parse(LmemJson.toJson(inst, null), "x").solution()).isEmpty();
      }
    }
    assertThat(LmemJson.parse(LmemJson.toJson(LmemMetricsTest.instance(), null), "m").instance())
        .isEqualTo(LmemMetricsTest.instance());
  }

  private static final String HEAD =
      "{\"name\":\"t\",\"capacity\":64,\"banks\":4,\"bankBytes\":16,\"euBytes\":4,";

  @Test
  void errorsNameFileAndCulprit() {
    assertThatThrownBy(
            () ->
                LmemJson.parse(
                    HEAD
                        + "\"buffers\":[{\"id\":\"a\",\"kind\":\"activation\",\"start\":0,"
                        + "\"end\":0,\"bytes\":-4}],\"timesteps\":[{\"tiu\":[],\"gdma\":[]}],"
                        + "\"inPlace\":[]}",
                    "f.json"))
        .hasMessage("f.json: buffer 'a': 'bytes' must be an integer in [0, 9223372036854775807]");
    assertThatThrownBy(
            () ->
                LmemJson.parse(
                    HEAD
                        + "\"buffers\":[{\"id\":\"a\",\"kind\":\"activation\",\"start\":0,"
                        + "\"end\":0,\"bytes\":4}],\"timesteps\":[{\"tiu\":[],\"gdma\":[\"b\"]}],"
                        + "\"inPlace\":[]}",
                    "f.json"))
        .hasMessage("f.json: timestep 0: 'gdma' names unknown buffer 'b'");
    assertThatThrownBy(
            () ->
                LmemJson.parse(
                    HEAD
                        + "\"buffers\":[{\"id\":\"a\",\"kind\":\"tensor\",\"start\":0,"
                        + "\"end\":0,\"bytes\":4}],\"timesteps\":[],\"inPlace\":[]}",
                    "f.json"))
        .hasMessage("f.json: buffer 'a': 'kind' must be activation, weight or scratch");
    assertThatThrownBy(
            () ->
                LmemJson.parse(
                    HEAD
                        + "\"buffers\":[{\"id\":\"a\",\"kind\":\"weight\",\"start\":0,"
                        + "\"end\":3,\"bytes\":4}],\"timesteps\":[{\"tiu\":[],\"gdma\":[]}],"
                        + "\"inPlace\":[]}",
                    "f.json"))
        .hasMessage("f.json: LMEM instance 't': buffer 'a' lives outside the 1 timesteps");
    assertThatThrownBy(() -> LmemJson.parse(HEAD + "\"colour\":1}", "f.json"))
        .hasMessageStartingWith("f.json: the instance: unknown field 'colour'");
    assertThatThrownBy(() -> LmemJson.parse("{\"name\":", "f.json"))
        .hasMessageStartingWith("f.json:1: ");
  }
}
