/** {@code lmem-exact}: LMEM placement as an OR-Tools CP-SAT model under TPU-MLIR's bank rules. */
package io.github.memplan.solvers.lmem.cpsat;
