/**
 * The planner SPI: planners, outcomes, solve contexts with seeds and budgets, providers, metrics.
 */
package io.github.memplan.core.solve;
