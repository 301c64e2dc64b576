/** Arm Ethos-U Vela's tensor allocators: the hill-climb search over allocation orders. */
package io.github.memplan.baseline.vela;
