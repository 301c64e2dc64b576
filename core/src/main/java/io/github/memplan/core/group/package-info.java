/**
 * Layer grouping: op semantics for slicing and LMEM sizing, shape secs and backward slicing,
 * timestep tables, the {@link io.github.memplan.core.group.Grouping} of a graph and its validator.
 */
package io.github.memplan.core.group;
