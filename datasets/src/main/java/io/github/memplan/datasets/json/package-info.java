/** memplan's own JSON graph format: a lossless, line-oriented image of a {@code core.ir} graph. */
package io.github.memplan.datasets.json;
