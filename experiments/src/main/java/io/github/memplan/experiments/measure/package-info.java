/**
 * One guarded run of a planner, shared by the CLI and the suites: solve on a daemon thread under a
 * time limit, validate, measure the problem's metrics, and say how it ended ({@link RunStatus}).
 */
package io.github.memplan.experiments.measure;
