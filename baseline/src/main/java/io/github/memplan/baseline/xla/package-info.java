/** XLA's heap simulator planners: global decreasing-size best fit and the best-of chooser. */
package io.github.memplan.baseline.xla;
