/**
 * The device memory problem of the Glow/Esperanto host runtime: traces of network loads and
 * inferences, the buffer metadata records, the region layout, run results and their validator.
 */
package io.github.memplan.core.device;
