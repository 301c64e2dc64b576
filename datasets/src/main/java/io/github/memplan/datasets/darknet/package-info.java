/** Importer of darknet {@code .cfg} network descriptions, and the zoo entries of installed cfgs. */
package io.github.memplan.datasets.darknet;
