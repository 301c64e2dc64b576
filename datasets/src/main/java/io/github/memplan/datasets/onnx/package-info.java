/**
 * The ONNX importer: reads .onnx models into IR graphs with static shapes, folding shape
 * sub-graphs.
 */
package io.github.memplan.datasets.onnx;
