/**
 * The LMEM placement problem of one layer group: buffers with (possibly wrapping) timestep
 * lifetimes and per-lane sizes, which engine touches them in each timestep, per-lane addresses, and
 * the validator with its bank report.
 */
package io.github.memplan.core.lmem;
