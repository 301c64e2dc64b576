package io.github.memplan.core.lmem;

/**
 * Permission for an op's output to reuse its input's LMEM address: TPU-MLIR's {@code
 * insert_inplace_local_mem} ({@code lib/Dialect/Tpu/Transforms/LayerGroup/LmemAllocator.cpp} at
 * commit 08951f713a; {@code reference/tpu-mlir.md} §2.10, "In-place slots"). Indices into {@link
 * LmemInstance#buffers()}.
 *
 * <p>A pair means: the two buffers may start at the <em>same address</em> (the output written over
 * the input it is computed from), or lie apart as any two buffers. No other overlap is allowed: the
 * allocator offers the input's whole range as a slot that the output takes from its start, and an
 * output at another address inside the input would overwrite input elements the op has not read
 * yet. The lives of a pair meet in one timestep only, the in-place op's ({@link #lifetimesAllow},
 * which {@link LmemInstance} checks), so the shared address is never live twice.
 *
 * <p>It is a permission, not an obligation: a placement that keeps the pair apart is valid too.
 *
 * @param input the buffer of the op's operand 0, whose life ends where the output's starts
 * @param output the buffer of the op's result
 */
public record InPlace(int input, int output) {

  /**
   * Whether the lifetimes of {@code input} and {@code output} allow them to share an address in a
   * table of {@code timesteps} rows: neither is held (a held buffer lives in every row), the input
   * ends in the row where the output starts ({@code src_buffer_value.end_ts ==
   * buffer_value.start_ts}) and {@code can_membuf_inplace_alloc(pre_start, pre_end, post_start,
   * post_end)} holds: both lives run forward ({@code end > start}), or exactly one wraps round the
   * loop boundary and the output ends before the input starts ({@code post_end < pre_start}), so
   * that the two meet in that row only.
   */
  public static boolean lifetimesAllow(LmemBuffer input, LmemBuffer output) {
    if (input.held() || output.held() || input.end() != output.start()) {
      return false;
    }
    return canMembufInplaceAlloc(input.start(), input.end(), output.start(), output.end());
  }

  /** {@code can_membuf_inplace_alloc} of {@code LmemAllocator.cpp}, condition for condition. */
  static boolean canMembufInplaceAlloc(int preStart, int preEnd, int postStart, int postEnd) {
    if (postStart != preEnd) {
      return false;
    }
    if (preEnd > preStart && postEnd > postStart) {
      return true;
    }
    if ((preEnd < preStart && postEnd > postStart) || (preEnd > preStart && postEnd < postStart)) {
      return postEnd < preStart;
    }
    return false;
  }
}
