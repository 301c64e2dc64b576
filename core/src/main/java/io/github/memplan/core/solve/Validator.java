package io.github.memplan.core.solve;

import java.util.List;

/**
 * The one oracle of a problem: checks a solution against its instance from scratch. Returns the
 * violations found (empty when valid); never throws for a solution of the right shape.
 */
@FunctionalInterface
public interface Validator<I, S> {
  List<Violation> validate(I instance, S solution);

  default boolean isValid(I instance, S solution) {
    return validate(instance, solution).isEmpty();
  }
}
