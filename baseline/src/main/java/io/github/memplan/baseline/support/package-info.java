/** Mechanics shared by the baseline planners: time overlaps, alignment, name order, budgets. */
package io.github.memplan.baseline.support;
