/** DSA instance sources beyond files: seeded generators of synthetic allocation traces. */
package io.github.memplan.datasets.dsa;
