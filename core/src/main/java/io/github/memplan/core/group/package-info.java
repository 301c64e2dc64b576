/**
 * Layer grouping: op semantics for slicing and LMEM sizing, shape secs and backward slicing,
 * timestep tables, the {@link io.github.memplan.core.group.Grouping} of a graph and its validator,
 * and the roofline cost model ({@link io.github.memplan.core.group.RooflineCostModel}) with the
 * grouping bound under it.
 */
package io.github.memplan.core.group;
