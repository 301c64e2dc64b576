/**
 * TensorFlow Lite's memory planners: the CPU arena, TFLite Micro's greedy planner and the GPU
 * delegate's shared-object and offset strategies, each faithful to its source file.
 */
package io.github.memplan.baseline.tflite;
