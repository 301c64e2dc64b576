/**
 * Search for LMEM placements under TPU-MLIR's rules: the bank-rule settings, first-fit placement
 * and lexicographic score shared by the LMEM search planners.
 */
package io.github.memplan.solvers.lmem;
