package io.github.memplan.datasets.tflite;

import io.github.memplan.core.io.MappedFiles;
import io.github.memplan.core.ir.Graph;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Map;

/**
 * Imports TFLite models ({@code .tflite} flatbuffers of schema version 3, read with the flatc-made
 * classes {@code org.tensorflow.lite.schema.*} of {@code org.tensorflow:tensorflow-lite-metadata})
 * into memplan {@link Graph}s: the main subgraph's operators in file order (TFLite's execution
 * order), one memplan op each, with the shapes and element types the file's operands give.
 *
 * <p><b>Layout: TPU-MLIR's TFLite front end.</b> memplan's ops follow ONNX (NCHW), TFLite's NHWC.
 * As {@code sophgo/tpu-mlir} {@code python/transform/TFLiteConverter.py} does for image models
 * ({@code model_format image}, read at commit 06db7bfa2f: {@code __nhwc2nchw}, {@code
 * __axis_transpose}, {@code pad_op}, {@code transpose_op}, {@code softmax_op}, {@code
 * depthwise_2d_op}, {@code fully_connected_op}), every rank-4 tensor is relabelled NCHW (its dims
 * {@code [n, h, w, c]} become {@code [n, c, h, w]}; bytes and lifetimes are unchanged), and the
 * axes, paddings and permutations of the ops that touch one are mapped with it; a Conv filter
 * {@code OHWI} becomes {@code OIHW}, a depthwise filter {@code [1, kh, kw, c·m]} becomes {@code
 * [c·m, 1, kh, kw]} with {@code group = c}, a FullyConnected weight keeps its {@code [units, in]}
 * as a Gemm's transposed B. Explicit pads come from TFLite's SAME/VALID rule as TPU-MLIR computes
 * them ({@code _compute_pad}, after {@code tensorflow/lite/kernels/padding.h}).
 *
 * <p><b>What each file operator becomes</b> (departures from TPU-MLIR's converter marked *):
 *
 * <ul>
 *   <li>CONV_2D, DEPTHWISE_CONV_2D: Conv; MAX/AVERAGE_POOL_2D: MaxPool/AveragePool;
 *       FULLY_CONNECTED: Gemm with a transposed B (* a higher-rank input is first read as {@code
 *       [elements / in, in]} by a Reshape, the in-place view TFLite's kernel takes; with {@code
 *       keep_num_dims}, a MatMul with bias); CONCATENATION: Concat; PAD, PADV2: Pad; RESHAPE:
 *       Reshape (target from the shape operand or the options, -1 resolved); TRANSPOSE: Transpose;
 *       SOFTMAX: Softmax over the last (file) axis; RESIZE_BILINEAR/NEAREST_NEIGHBOR: Resize to the
 *       size operand; STRIDED_SLICE, SLICE: Slice (* masks other than begin/end are unsupported);
 *       MEAN, SUM, REDUCE_MAX/MIN/PROD: the Reduce ops (* TPU-MLIR turns MEAN over H and W into an
 *       AvgPool); the elementwise and activation ops their ONNX namesakes (LOGISTIC is Sigmoid,
 *       MAXIMUM/MINIMUM Max/Min, RELU6 a Clip(0, 6), RELU_N1_TO_1 a Clip(-1, 1)); * RSQRT a Pow by
 *       the constant -0.5 (memplan has no Rsqrt; one op, one result, as in the file); EXPAND_DIMS
 *       and SQUEEZE Unsqueeze/Squeeze, or a Reshape when a rank-4 tensor is involved (its NCHW
 *       relabelling is not a dim insertion); * BATCH_MATMUL a MatMul, or when its left operand is a
 *       rank-4 NHWC tensor and its right one a constant matrix a 1x1 Conv (the same product over
 *       the channel axis, the matrix read as a {@code [k, c, 1, 1]} filter); * DEPTH_TO_SPACE (not
 *       in TPU-MLIR's converter) a DepthToSpace in DCR mode: TFLite's kernel ({@code
 *       tensorflow/lite/kernels/internal/reference/reference_ops.h}, {@code DepthToSpace}; the copy
 *       read carried no commit) reads output {@code [b, h, w, d]} of NHWC data from input channel
 *       {@code ((h mod bs)·bs + w mod bs)·C' + d}, the block index as the channel's major part,
 *       which is ONNX's DCR order on the tensors relabelled NCHW.
 *   <li>* MediaPipe's custom {@code Convolution2DTransposeBias} (selfie segmentation): a
 *       ConvTranspose with its bias, strides and padding read from the operator's 12-byte custom
 *       options ({@code TfLiteTransposeConvParams}: padding, stride_width, stride_height) and the
 *       output size of MediaPipe's {@code mediapipe/util/tflite/operations/transpose_conv_bias.cc}
 *       ({@code google/mediapipe}; the copy read carried no commit) {@code Prepare}: {@code
 *       stride·(in−1) + k − pad}, SAME padding {@code max(0, k − (in−1) mod stride − 1)}, split as
 *       its {@code Eval} splits it: begin {@code pad/2}, end the rest.
 *   <li><b>Constants, as TFLite's runtime holds them.</b> A DEQUANTIZE whose input is a constant
 *       buffer is computed once into a persistent tensor ({@code tensorflow/lite/kernels/
 *       dequantize.cc} {@code Prepare}, commit 0854f7c666: {@code kTfLiteArenaRwPersistent});
 *       DENSIFY too, always ({@code densify.cc}, commit 0866b7a759). Both are therefore no op here:
 *       their result is a stored tensor of the result's type (an fp16 weight dequantized at load is
 *       an F32 weight; the F16 copy in the file is not counted). A DEQUANTIZE of any other input
 *       (of a DENSIFY result, whose allocation is not TFLite's constant one, or of run-time int8
 *       data) runs every time: a Cast (F16) or a DequantizeLinear (integers, with the input's scale
 *       and zero point as constants). * QUANTIZE is a QuantizeLinear.
 *   <li><b>Weights.</b> Constant operands are stored tensors: {@link io.github.memplan.core.ir.Role
 *       #WEIGHT} when floating point, 8- or 4-bit, or the bias operand of a Conv, FullyConnected or
 *       transposed convolution, {@link io.github.memplan.core.ir.Role#CONSTANT} otherwise (scalars,
 *       integer parameters). Operands memplan takes as attributes (shapes, axes, paddings,
 *       permutations, sizes) are read and are not tensors of the graph.
 *   <li><b>Fused activations</b> stay fused, as TFLite (and TPU-MLIR's {@code do_relu}) keep them:
 *       RELU and RELU6 set {@code do_relu = 1} with {@code relu_limit} -1 and 6 (the attributes of
 *       {@link io.github.memplan.core.frontend.FrontEnd}); every fused activation is also kept by
 *       name in the attribute {@code fused_activation} (* TPU-MLIR refuses TANH, RELU_N1_TO_1 and
 *       SIGN_BIT, and reads RELU6 as a plain ReLU).
 *   <li><b>Quantization.</b> Tensors keep the file's element type (int8, uint8, int16, int32, fp16,
 *       ...), so weight and activation bytes are the file's; each quantized tensor's scales and
 *       zero points are in {@link TfliteImport#quantization()}.
 *   <li><b>Input sizes.</b> The file's stored input shapes are used, as TFLite's interpreter does,
 *       unless {@code inputShapes} resizes an input (TFLite's {@code ResizeInputTensorStrict}: only
 *       dims whose {@code shape_signature} is -1 may change); every other shape is then inferred.
 * </ul>
 *
 * <p>Not modelled, each a one-line {@link UnsupportedTfliteException} naming the file, the
 * operator's index and its name (and every other unsupported operator of the file, counted):
 * operators without a mapping above (control flow such as IF and WHILE, other custom operators,
 * SPACE_TO_DEPTH, ...), variable tensors, subgraphs other than the first. A malformed file (not a
 * flatbuffer, no {@code TFL3} identifier, another schema version, indices out of range) is a
 * one-line {@link IllegalArgumentException} naming the file, never a stack trace.
 */
public final class TfliteImporter {
  private TfliteImporter() {}

  /** Imports {@code file}; {@code inputShapes} resizes inputs by name (may be empty). */
  public static Graph load(Path file, Map<String, long[]> inputShapes) throws IOException {
    return read(file, inputShapes).graph();
  }

  /** Imports {@code file}, with its operator count, quantization and shape checks. */
  public static TfliteImport read(Path file, Map<String, long[]> inputShapes) throws IOException {
    return read(file, inputShapes, graphName(file.getFileName().toString()));
  }

  /** Imports {@code file} into a graph named {@code graphName}. */
  public static TfliteImport read(Path file, Map<String, long[]> inputShapes, String graphName)
      throws IOException {
    return read(
        MappedFiles.readOnly(file, "a flatbuffer's"), file.toString(), inputShapes, graphName);
  }

  /**
   * Imports the model in {@code bytes}, naming it {@code source} in messages and {@code graphName}
   * as a graph.
   */
  public static TfliteImport read(
      ByteBuffer bytes, String source, Map<String, long[]> inputShapes, String graphName) {
    ByteBuffer bb = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    return new TfliteTranslation(bb, source, inputShapes, graphName).run();
  }

  /** Imports {@code bytes} (a whole file's content). */
  public static TfliteImport read(
      byte[] bytes, String source, Map<String, long[]> inputShapes, String graphName) {
    return read(ByteBuffer.wrap(bytes), source, inputShapes, graphName);
  }

  /** {@code models/pose_landmark_lite.tflite} gives {@code pose_landmark_lite}. */
  static String graphName(String source) {
    String base = source.replace('\\', '/');
    base = base.substring(base.lastIndexOf('/') + 1);
    return base.endsWith(".tflite") ? base.substring(0, base.length() - 7) : base;
  }
}
