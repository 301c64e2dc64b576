/**
 * Experiment suites: a YAML file of problems x instances x planners (with parameters) x seeds x
 * budget x metrics, parsed and checked ({@link io.github.memplan.experiments.suite.SuiteParser})
 * into a {@link io.github.memplan.experiments.suite.Suite}; each problem is a pluggable {@link
 * io.github.memplan.experiments.suite.ProblemKind} found with {@code ServiceLoader}.
 */
package io.github.memplan.experiments.suite;
