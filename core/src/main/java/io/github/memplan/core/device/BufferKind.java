package io.github.memplan.core.device;

/**
 * The buffer types of the seed {@code glow-esperanto-memory-management.rst} ("Memory Regions Of
 * Each Network &amp; Lifetime"): code and constants live while their network is loaded; the
 * placeholders (inputs, outputs, in/outs) and the internal spill area are allocated per inference;
 * the logging carve-out lives from boot on.
 */
public enum BufferKind {
  CODE,
  CONSTANT,
  INPUT,
  OUTPUT,
  IN_OUT,
  INTERNAL,
  LOGGING;

  /** True for the per-inference buffers (placeholders and the internal area). */
  public boolean perInference() {
    return this == INPUT || this == OUTPUT || this == IN_OUT || this == INTERNAL;
  }

  /** Lower-case id used in files: {@code code}, {@code in-out}, ... */
  public String id() {
    return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
  }
}
