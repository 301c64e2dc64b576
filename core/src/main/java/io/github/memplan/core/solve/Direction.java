package io.github.memplan.core.solve;

/** Which way a metric improves; declared by each metric, never guessed from its name. */
public enum Direction {
  LOWER_IS_BETTER,
  HIGHER_IS_BETTER
}
