/** Reference points without reuse: every buffer gets space of its own. */
package io.github.memplan.baseline.naive;
