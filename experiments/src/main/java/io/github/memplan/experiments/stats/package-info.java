/**
 * Statistics for comparing planners over instances: Friedman test, mean ranks, Holm post-hoc,
 * Wilcoxon signed-rank test, geometric-mean ratios, wins/ties/losses, median and IQR.
 */
package io.github.memplan.experiments.stats;
