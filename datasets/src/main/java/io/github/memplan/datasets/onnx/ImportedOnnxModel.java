package io.github.memplan.datasets.onnx;

import io.github.memplan.core.ir.Graph;

/**
 * The result of importing an ONNX model.
 *
 * @param graph the imported graph: live ops only, static shapes, weights and constants
 * @param fileNodes the nodes in the file, counted recursively through If/Loop/Scan bodies and
 *     including Constant nodes (the count models.md reports)
 */
public record ImportedOnnxModel(Graph graph, int fileNodes) {}
