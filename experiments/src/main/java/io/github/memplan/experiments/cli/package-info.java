/** The {@code memplan} command line: list, plan a model's GMEM, plan and validate DSA instances. */
package io.github.memplan.experiments.cli;
