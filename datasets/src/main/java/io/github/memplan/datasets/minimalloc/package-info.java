/** MiniMalloc's benchmark instances, shipped as the datasets {@code minimalloc/*}. */
package io.github.memplan.datasets.minimalloc;
