/**
 * What every Timefold Solver search of memplan shares: the watcher that ends a solve when the run's
 * budget runs out or is cancelled.
 */
package io.github.memplan.solvers.timefold;
