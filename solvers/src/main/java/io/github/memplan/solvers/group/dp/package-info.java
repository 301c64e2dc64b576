/**
 * {@code group-dp-best}: the exact dynamic program over layer-group cuts, each group at its
 * cheapest valid shape secs.
 */
package io.github.memplan.solvers.group.dp;
