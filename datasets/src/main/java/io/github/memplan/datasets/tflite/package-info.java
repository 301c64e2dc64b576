/**
 * The TFLite importer: {@code .tflite} flatbuffers, read with the generated schema classes of
 * {@code org.tensorflow:tensorflow-lite-metadata}, into memplan graphs in TPU-MLIR's NCHW layout.
 */
package io.github.memplan.datasets.tflite;
