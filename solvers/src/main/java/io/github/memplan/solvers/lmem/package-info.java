/**
 * Search for LMEM placements under TPU-MLIR's rules: the bank-rule settings and lexicographic score
 * shared by the LMEM search planners, and {@code lmem-exact}, the CP-SAT model.
 */
package io.github.memplan.solvers.lmem;
