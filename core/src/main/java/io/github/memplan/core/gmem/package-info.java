/**
 * GMEM problems of a model: TPU-MLIR's weight region and the activation lifetimes that become a
 * {@link io.github.memplan.core.dsa.DsaInstance}.
 */
package io.github.memplan.core.gmem;
