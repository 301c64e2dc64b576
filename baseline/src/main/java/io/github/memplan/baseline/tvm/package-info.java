/**
 * Apache TVM's memory planners: TIR {@code StorageRewrite} and the USMP greedy and hill-climb
 * algorithms.
 */
package io.github.memplan.baseline.tvm;
