/** Accelerator constants (lanes, LMEM, banks, alignments, clocks), loaded from a bundled table. */
package io.github.memplan.core.chip;
