package io.github.memplan.datasets.darknet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The oracle's reader, on lines darknet printed (copied from {@code darknet ops} runs). */
class DarknetTableTest {
  @Test
  void readsEveryKindOfRow() {
    String printed =
        String.join(
            "\n",
            "layer     filters    size              input                output",
            "    0 conv     16  3 x 3 / 1   416 x 416 x   3   ->   416 x 416 x  16  0.150 BFLOPs",
            "    1 max          2 x 2 / 2   416 x 416 x  16   ->   208 x 208 x  16",
            "    2 route  1 0",
            "    3 upsample            2x    13 x  13 x 128   ->    26 x  26 x 128",
            "    4 res  125                   8 x   8 x2048   ->     8 x   8 x2048",
            "    5 avg                        8 x   8 x1000   ->  1000",
            "    6 connected                            9216  ->  4096",
            "    7 dropout       p = 0.50               4096  ->  4096",
            "    8 softmax                                        1000",
            "    9 type: Using default 'sse'",
            "cost                                           65536",
            "   10 reorg              / 2    38 x  38 x  64   ->    19 x  19 x 256",
            "   11 reorg               361   ->   362",
            "   12 Crop Layer: 256 x 200 -> 224 x 180 x 3 image",
            "shift: Using default '0.000000'",
            "   13 Local Layer: 7 x 6 x 1024 image, 256 filters -> 7 x 6 x 256 image",
            "   14 RNN Layer: 256 inputs, 1024 outputs",
            "\t\tconnected                             256  ->  1024",
            "Unused field: 'hidden = 1024'",
            "   15 yolo",
            "   16 detection",
            "   17 Detection Layer",
            "Floating Point Operations: 5.56 Bn");
    List<DarknetTable.Row> rows = DarknetTable.parse(printed);
    assertThat(rows)
        .extracting(DarknetTable.Row::index)
        .containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17);
    assertThat(rows)
        .extracting(DarknetTable.Row::kind)
        .containsExactly(
            "conv",
            "max",
            "route",
            "upsample",
            "res",
            "avg",
            "connected",
            "dropout",
            "softmax",
            "cost",
            "reorg",
            "reorg",
            "crop",
            "local",
            "rnn",
            "yolo",
            "detection",
            "detection-v1");
    assertThat(rows.get(0).in()).containsExactly(416, 416, 3);
    assertThat(rows.get(0).out()).containsExactly(416, 416, 16);
    assertThat(rows.get(2).refs()).containsExactly(1, 0);
    assertThat(rows.get(3).in()).containsExactly(13, 13, 128);
    assertThat(rows.get(3).out()).containsExactly(26, 26, 128);
    assertThat(rows.get(4).refs()).containsExactly(125);
    assertThat(rows.get(4).out()).containsExactly(8, 8, 2048);
    assertThat(rows.get(5).in()).containsExactly(8, 8, 1000);
    assertThat(rows.get(5).outCount()).isEqualTo(1000);
    assertThat(rows.get(6).inCount()).isEqualTo(9216);
    assertThat(rows.get(6).outCount()).isEqualTo(4096);
    assertThat(rows.get(9).outCount()).isEqualTo(65536);
    assertThat(rows.get(10).out()).containsExactly(19, 19, 256);
    assertThat(rows.get(11).inCount()).isEqualTo(361);
    assertThat(rows.get(11).outCount()).isEqualTo(362);
    // crop and local print h x w; rows hold w x h
    assertThat(rows.get(12).in()).containsExactly(200, 256, -1);
    assertThat(rows.get(12).out()).containsExactly(180, 224, 3);
    assertThat(rows.get(13).in()).containsExactly(6, 7, 1024);
    assertThat(rows.get(13).out()).containsExactly(6, 7, 256);
    assertThat(rows.get(14).inCount()).isEqualTo(256);
    assertThat(rows.get(14).outCount()).isEqualTo(1024);
  }
}
