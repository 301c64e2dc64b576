package io.github.memplan.solvers.group.timefold;

/**
 * A maximal run of uncut boundaries, as the op range {@code first..last} (two ops or more) it joins
 * into one group. An immutable value, so that the constraint streams see a new fact whenever a run
 * changes.
 */
public record Run(int first, int last) {
  public Run {
    if (first < 0 || last <= first) {
      throw new IllegalArgumentException("run [" + first + ".." + last + "]");
    }
  }
}
