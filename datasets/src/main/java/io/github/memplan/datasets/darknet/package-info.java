/**
 * Importer of darknet {@code .cfg} network descriptions, and the zoo entries of the cfgs memplan
 * ships.
 */
package io.github.memplan.datasets.darknet;
