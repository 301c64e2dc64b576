package io.github.memplan.core.group;

/** The axes of the local layout that LayerGroup may slice (D is not modelled: no GROUP_3D). */
public enum Axis {
  N,
  C,
  H,
  W
}
