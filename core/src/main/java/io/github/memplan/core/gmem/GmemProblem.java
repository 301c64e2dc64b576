package io.github.memplan.core.gmem;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.dsa.DsaInstance;

/**
 * A model's GMEM problem on one chip: the weight region, laid out by TPU-MLIR's fixed rule, and the
 * activations, an offset problem for planners.
 *
 * @param model the graph's name
 * @param chip the chip whose alignments were applied
 * @param weights the coefficient region
 * @param activations the global neuron tensors with their lifetimes and op program
 */
public record GmemProblem(String model, Chip chip, WeightLayout weights, DsaInstance activations) {}
