/**
 * Glow/Esperanto host runtime's device memory manager, as its MemoryManagement document describes
 * it: the linear, pool, bidirectional and combined allocators (best fit and buddy for comparison)
 * and the trace simulator that replays a device trace against one of them.
 */
package io.github.memplan.baseline.glow.device;
