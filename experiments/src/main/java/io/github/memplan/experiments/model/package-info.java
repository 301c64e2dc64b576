/**
 * Models named on a command line or in a suite: a zoo name or a model file (darknet, graph JSON,
 * ONNX, TFLite), with the input shapes and values an ONNX or TFLite file may need.
 */
package io.github.memplan.experiments.model;
