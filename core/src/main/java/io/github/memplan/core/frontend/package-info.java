/**
 * The front end: graph passes that bring an ONNX-level graph to the op granularity at which
 * TPU-MLIR's LayerGroup sees it (BatchNorm folded into Conv, activations fused into their
 * producers, MatMul biases fused). {@link io.github.memplan.core.frontend.FrontEnd} runs them; each
 * pass cites the TPU-MLIR pattern it follows.
 */
package io.github.memplan.core.frontend;
