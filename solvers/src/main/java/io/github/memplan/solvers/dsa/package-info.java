/**
 * What the DSA searches share: the search model of an instance (co-active pairs, effective sizes,
 * windows) and interval sorting.
 */
package io.github.memplan.solvers.dsa;
