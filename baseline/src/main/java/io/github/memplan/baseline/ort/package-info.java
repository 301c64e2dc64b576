/** ONNX Runtime's allocation planner: a freed buffer is reused only by a tensor of its size. */
package io.github.memplan.baseline.ort;
