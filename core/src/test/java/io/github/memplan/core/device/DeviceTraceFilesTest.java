package io.github.memplan.core.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class DeviceTraceFilesTest {
  static final String H = DeviceTraceFiles.HEADER + "\n";

  static DeviceTrace sample() {
    Network a = new Network("a", 4096, 8192, List.of(64L, 128L), List.of(256L), List.of(), 1024);
    Network b = new Network("b", 100, 0, List.of(), List.of(), List.of(512L), 0);
    return new DeviceTrace(
        "t",
        List.of(a, b),
        List.of(
            DeviceEvent.load("a"),
            DeviceEvent.load("b"),
            DeviceEvent.start("a", 0),
            DeviceEvent.start("b", 1),
            DeviceEvent.finish("a", 0),
            DeviceEvent.unload("a"),
            DeviceEvent.load("a"),
            DeviceEvent.finish("b", 1)));
  }

  @Test
  void csvRoundTrip() {
    DeviceTrace t = sample();
    String csv = DeviceTraceFiles.toCsv(t);
    assertThat(csv)
        .startsWith(
            H + "load,a,,4096,8192,64;128,256,,1024\nload,b,,100,0,,,512,0\nstart,a,0,,,,,,\n");
    assertThat(DeviceTraceFiles.parseCsv(csv, "t", "t.csv")).isEqualTo(t);
  }

  @Test
  void jsonRoundTrip() {
    DeviceTrace t = sample();
    assertThat(DeviceTraceFiles.parseJson(DeviceTraceFiles.toJson(t), "t.json")).isEqualTo(t);
  }

  private static void csvFails(String text, String message) {
    assertThatThrownBy(() -> DeviceTraceFiles.parseCsv(text, "x", "x.csv"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void csvErrorsNameTheLine() {
    csvFails("id,lower\n", "x.csv:1: expected the header '" + DeviceTraceFiles.HEADER + "'");
    csvFails(H + "load,a,,1,2,,,\n", "x.csv:2: expected 9 fields, found 8");
    csvFails(
        H + "# c\nrun,a,,,,,,,\n",
        "x.csv:3: unknown event 'run' (expected load, unload, start or finish)");
    csvFails(
        H + "load,a,,x,2,,,,0\n",
        "x.csv:2: field 'code' must be a non-negative integer, found 'x'");
    csvFails(H + "load,a,,1,2,0,,,0\n", "x.csv:2: network a: placeholder size 0");
    csvFails(
        H + "load,a,,1,2,,,,0\nstart,a,,,,,,,\n",
        "x.csv:3: field 'inference' must be a non-negative integer, found ''");
    csvFails(
        H + "load,a,,1,2,,,,0\nstart,a,0,1,,,,,\n",
        "x.csv:3: only a load describes the network; field 4 must be empty");
    csvFails(
        H + "load,a,,1,2,,,,0\nunload,a,,,,,,,\nload,a,,1,3,,,,0\n",
        "x.csv:4: network a is described differently from its earlier load");
    csvFails(
        H + "load,a,,1,2,,,,0\nload,b,,1,2,,,,0\n\nstart,b,0,,,,,,\nunload,b,,,,,,,\n",
        "x.csv:6: trace x, event 3 (unload b): inferences still in flight");
  }

  @Test
  void jsonErrors() {
    assertThatThrownBy(
            () -> DeviceTraceFiles.parseJson("{\n\"name\": \"t\",\n\"networks\": [,\n", "x.json"))
        .hasMessageStartingWith("x.json:3: ");
    assertThatThrownBy(
            () ->
                DeviceTraceFiles.parseJson(
                    "{\"name\":\"t\",\"networks\":[],\"events\":[],\"x\":1}", "x.json"))
        .hasMessage("x.json: the trace: unknown field 'x' (known: events, name, networks)");
    assertThatThrownBy(
            () ->
                DeviceTraceFiles.parseJson(
                    "{\"name\":\"t\",\"networks\":[],\"events\":[{\"op\":\"load\",\"network\":\"a\"}]}",
                    "x.json"))
        .hasMessage("x.json: trace t, event 0 (load a): unknown network");
    assertThatThrownBy(
            () ->
                DeviceTraceFiles.parseJson(
                    "{\"name\":\"t\",\"networks\":[],\"events\":[{\"op\":\"unload\",\"network\":\"a\",\"inference\":1}]}",
                    "x.json"))
        .hasMessage("x.json: event #0: 'inference' is required by start and finish only");
  }

  @Test
  void traceRulesAreChecked() {
    Network a = new Network("a", 1, 1, List.of(), List.of(), List.of(), 0);
    assertThatThrownBy(() -> new DeviceTrace("t", List.of(a), List.of(DeviceEvent.start("a", 0))))
        .hasMessage("trace t, event 0 (start a): not loaded");
    assertThatThrownBy(
            () ->
                new DeviceTrace(
                    "t",
                    List.of(a),
                    List.of(
                        DeviceEvent.load("a"),
                        DeviceEvent.start("a", 0),
                        DeviceEvent.finish("a", 0),
                        DeviceEvent.start("a", 0))))
        .hasMessage("trace t, event 3 (start a): inference id 0 negative or used before");
    assertThatThrownBy(
            () ->
                new DeviceTrace(
                    "t", List.of(a), List.of(DeviceEvent.load("a"), DeviceEvent.finish("a", 3))))
        .hasMessage("trace t, event 1 (finish a): inference 3 is not in flight on this network");
  }

  @Test
  void generatorsAreSeeded() {
    List<Network> cat =
        List.of(
            sample().networks().get(0),
            sample().networks().get(1),
            new Network("c", 1, 1, List.of(64L), List.of(), List.of(), 0));
    DeviceTraceGenerators.Serving p = new DeviceTraceGenerators.Serving(2, 3, 60, 10);
    DeviceTrace t1 = DeviceTraceGenerators.serving(cat, 7, p);
    assertThat(DeviceTraceFiles.toCsv(DeviceTraceGenerators.serving(cat, 7, p)))
        .isEqualTo(DeviceTraceFiles.toCsv(t1));
    assertThat(DeviceTraceFiles.toCsv(DeviceTraceGenerators.serving(cat, 8, p)))
        .isNotEqualTo(DeviceTraceFiles.toCsv(t1));
    assertThat(t1.events().stream().filter(e -> e.op() == DeviceEvent.Op.START)).hasSize(60);
    assertThat(t1.events().stream().filter(e -> e.op() == DeviceEvent.Op.FINISH)).hasSize(60);
    assertThat(t1.events().stream().filter(e -> e.op() == DeviceEvent.Op.UNLOAD)).hasSize(5);
    DeviceLayout l = DeviceLayout.of(1L << 30);
    for (String k : DeviceTraceGenerators.KINDS) {
      assertThat(DeviceTraceGenerators.generate(k, cat, l, 1, p).events()).as(k).isNotEmpty();
    }
  }
}
