package io.github.memplan.experiments.suite;

import java.util.function.Supplier;

/**
 * A named instance of a suite, loaded on first use.
 *
 * @param name the name in the results' instance column
 * @param loader builds the instance (may throw; the runs on it are then {@code ERROR})
 */
public record SuiteInstance(String name, Supplier<Object> loader) {}
