/**
 * Search over layer-group cuts and shape secs: the shared group evaluator (best valid secs of an op
 * range under the cost model, checked by an LMEM placement oracle) and the planners built on it.
 */
package io.github.memplan.solvers.group;
