package io.github.memplan.datasets.zoo;

import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;

/**
 * CRNN scene-text recognizer for Bx1x32xW grayscale images: Shi, Bai and Yao, "An End-to-End
 * Trainable Neural Network for Image-based Sequence Recognition and Its Application to Scene Text
 * Recognition", IEEE TPAMI 39(11), 2017, Table 4 (the network configuration) with the 37 output
 * classes of its case-insensitive lexicon-free setting (26 letters, 10 digits and the CTC blank).
 * Registered as {@code crnn} (W=100, the paper's typical 100x32 input, B=1).
 *
 * <p>Convolutions (Table 4, bottom to top), each 3x3 stride 1 pad 1 with bias and followed by ReLU
 * (as in the authors' Torch code; the table lists no activations): {@code conv1} 64, max pool
 * 2x2/2, {@code conv2} 128, max pool 2x2/2, {@code conv3} 256, {@code conv4} 256, max pool "1x2,
 * s:2", {@code conv5} 512 + BatchNorm {@code bn5}, {@code conv6} 512 + BatchNorm {@code bn6}, max
 * pool "1x2, s:2", {@code conv7} 512 with a 2x2 kernel, stride 1, no padding. The 1x2 pools (the
 * paper's implementation details: rectangular windows that keep the feature map wide) are windows 2
 * high and 1 wide, stride 2 vertically and 1 horizontally: a horizontal stride of 2 would halve the
 * width they are there to keep. Map-to-sequence: the {@code [B,512,1,T]} map is squeezed and
 * transposed to {@code [T,B,512]}, T = W/4 - 1 (24 for W=100; the paper's text says 25 frames, the
 * authors' Torch code pads its 2x2 pools to get 26). Two bidirectional LSTMs of 256 units each way
 * ({@code blstm1}, {@code blstm2}; ONNX LSTMs with input and recurrent biases), each direction pair
 * concatenated to {@code [T,B,512]} (ONNX's Transpose + Reshape of Y), and a per-frame linear layer
 * {@code fc} to 37 classes. The CTC transcription layer has no parameters and is not part of the
 * graph.
 *
 * <p>Output {@code fc} {@code [T,B,37]} (per-frame logits). 8,723,749 parameters at every W and B:
 * convolutions 5,548,800, BatchNorm 2,048, LSTMs 2 x 1,576,960, fc 18,981. The paper reports a
 * model size of 8.3M parameters (its comparison of methods), the count of the authors' released
 * network ({@code bgshih/crnn}, model/crnn_demo/config.lua), which differs from Table 4 in its
 * recurrent part: after each BiLSTM the two directions are not concatenated but each projected by a
 * linear layer to the next layer's width and summed ({@code BiRnnJoin}), so the second BiLSTM reads
 * 256 inputs instead of 512 (524,288 fewer weights) and two joins add 131,584 and 19,018 where
 * Table 4's single {@code fc} has 18,981; its BatchNorm follows conv3, conv5 and conv7 (2,560
 * values instead of 2,048). That network has 8,723,749 - 524,288 + 131,584 + 37 - 512 = 8,331,594
 * parameters, the paper's 8.3M.
 */
public final class Crnn implements ModelProvider {
  public static final long HEIGHT = 32;
  public static final long STANDARD_WIDTH = 100;
  public static final long CLASSES = 37;

  private static final long HIDDEN = 256;

  private final long width;
  private final long batch;

  /** 1x32x100 images, batch 1. */
  public Crnn() {
    this(STANDARD_WIDTH, 1);
  }

  /**
   * @param width image width in pixels, at least 8 (one output frame)
   * @param batch images per run, at least 1
   */
  public Crnn(long width, long batch) {
    this.width = Ids.check("crnn", "width", width, 8, 1 << 20);
    this.batch = Ids.check("crnn", "batch", batch, 1, Integer.MAX_VALUE);
  }

  @Override
  public String name() {
    return Ids.sized("crnn", width, STANDARD_WIDTH, batch);
  }

  @Override
  public String description() {
    return "CRNN (7 convs + 2 BiLSTM-256), " + batch + "x1x32x" + width + ", 37 classes, fp32";
  }

  @Override
  public String citation() {
    return "Shi, Bai and Yao, An End-to-End Trainable Neural Network for Image-based Sequence"
        + " Recognition and Its Application to Scene Text Recognition, TPAMI 2017, Table 4";
  }

  @Override
  public Graph build() {
    Graph.Builder b = Graph.builder(name());
    Layers l = new Layers(b, DType.F32);
    b.input("input", DType.F32, batch, 1, HEIGHT, width);
    String x = convRelu(l, 1, "input", 64, 3, 1, false);
    x = l.maxPool("pool1", x, 2, 2, 0);
    x = convRelu(l, 2, x, 128, 3, 1, false);
    x = l.maxPool("pool2", x, 2, 2, 0);
    x = convRelu(l, 3, x, 256, 3, 1, false);
    x = convRelu(l, 4, x, 256, 3, 1, false);
    x = tallPool(l, "pool3", x);
    x = convRelu(l, 5, x, 512, 3, 1, true);
    x = convRelu(l, 6, x, 512, 3, 1, true);
    x = tallPool(l, "pool4", x);
    x = convRelu(l, 7, x, 512, 2, 0, false);

    x = l.squeeze("map_to_sequence.squeeze", x, 2);
    x = l.transpose("map_to_sequence", x, 2, 0, 1);
    x = blstm(l, "blstm1", x);
    x = blstm(l, "blstm2", x);
    x = l.linear("fc", x, CLASSES);
    b.output(x);
    return b.build();
  }

  /** {@code conv<i>} (with bias), optionally {@code bn<i>}, then {@code relu<i>}. */
  private static String convRelu(
      Layers l, int i, String x, long out, long kernel, long pad, boolean batchNorm) {
    String y = l.conv("conv" + i, x, out, kernel, 1, pad, 1, true);
    if (batchNorm) {
      y = l.batchNorm("bn" + i, y);
    }
    return l.relu("relu" + i, y);
  }

  /** The paper's "1x2, s:2" pooling: window 2 high, 1 wide; stride 2 down, 1 across. */
  private static String tallPool(Layers l, String name, String x) {
    return l.maxPool(name, x, new long[] {2, 1}, new long[] {2, 1}, new long[] {0, 0, 0, 0});
  }

  /** A bidirectional LSTM over [T, B, in], directions concatenated to [T, B, 2*HIDDEN]. */
  private String blstm(Layers l, String name, String x) {
    long steps = l.shape(x).dim(0);
    String y = l.lstm(name, x, HIDDEN, true);
    y = l.transpose(name + ".transpose", y, 0, 2, 1, 3);
    return l.reshape(name + ".concat", y, steps, batch, 2 * HIDDEN);
  }
}
