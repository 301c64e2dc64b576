/**
 * Dynamic storage allocation (GMEM offsets): buffers with fixed lifetimes, offsets, the validator,
 * lower bounds and the MiniMalloc CSV format.
 */
package io.github.memplan.core.dsa;
