/**
 * Benchmark datasets shipped with memplan: named sets of instance files with their license,
 * provenance and checksums ({@link io.github.memplan.core.dataset.DatasetProvider}), found with
 * {@link java.util.ServiceLoader} by {@link io.github.memplan.core.dataset.Datasets}, and named
 * from the command line and suites as {@code DATASET:ENTRY} (for example {@code minimalloc:A}).
 */
package io.github.memplan.core.dataset;
