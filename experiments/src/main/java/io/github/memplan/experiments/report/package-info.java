/**
 * Paper tables (Markdown, LaTeX, CSV) and plots derived from a results folder's long-format CSV.
 */
package io.github.memplan.experiments.report;
