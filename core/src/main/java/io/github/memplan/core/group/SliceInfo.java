package io.github.memplan.core.group;

import java.util.List;

/**
 * The slices of one tensor per axis ({@code slice_info_t}, {@code reference/tpu-mlir.md} §2.1): the
 * loop visits every combination, so the tensor's slice in iteration {@code (in, ic, ih, iw)} is
 * {@code (n[in], c[ic], h[ih], w[iw])}.
 */
public record SliceInfo(List<Range> n, List<Range> c, List<Range> h, List<Range> w) {
  public SliceInfo {
    n = List.copyOf(n);
    c = List.copyOf(c);
    h = List.copyOf(h);
    w = List.copyOf(w);
    if (n.isEmpty() || c.isEmpty() || h.isEmpty() || w.isEmpty()) {
      throw new IllegalArgumentException("slice info with an empty axis");
    }
  }

  /** The whole tensor as one slice. */
  public static SliceInfo whole(Nchw s) {
    return new SliceInfo(
        List.of(new Range(0, s.n())),
        List.of(new Range(0, s.c())),
        List.of(new Range(0, s.h())),
        List.of(new Range(0, s.w())));
  }

  public List<Range> get(Axis axis) {
    return switch (axis) {
      case N -> n;
      case C -> c;
      case H -> h;
      case W -> w;
    };
  }

  /** A copy with {@code axis}'s slices replaced. */
  public SliceInfo with(Axis axis, List<Range> slices) {
    return new SliceInfo(
        axis == Axis.N ? slices : n,
        axis == Axis.C ? slices : c,
        axis == Axis.H ? slices : h,
        axis == Axis.W ? slices : w);
  }

  /** The largest slice length of {@code axis} (the "max" slice used for sizing). */
  public long max(Axis axis) {
    long m = 0;
    for (Range r : get(axis)) {
      m = Math.max(m, r.len());
    }
    return m;
  }

  /** Σ of the slice lengths of {@code axis}. */
  public long total(Axis axis) {
    long t = 0;
    for (Range r : get(axis)) {
      t += r.len();
    }
    return t;
  }
}
