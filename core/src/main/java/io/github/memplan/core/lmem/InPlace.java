package io.github.memplan.core.lmem;

/**
 * Permission for two buffers to share LMEM addresses: an op's output may reuse its input's range
 * when the input's life ends where the output's begins (TPU-MLIR's {@code
 * insert_inplace_local_mem}, {@code reference/tpu-mlir.md} §2.10). Indices into {@link
 * LmemInstance#buffers()}.
 *
 * @param input the buffer whose life ends
 * @param output the buffer whose life starts in that timestep
 */
public record InPlace(int input, int output) {}
