/**
 * The greedy DSA placements the searches start from ({@code greedy}): best fit by decreasing size,
 * the portfolio of orders and online best fit, and the pick of the best of them.
 */
package io.github.memplan.solvers.dsa.greedy;
