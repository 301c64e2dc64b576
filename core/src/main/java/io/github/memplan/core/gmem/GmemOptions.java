package io.github.memplan.core.gmem;

import io.github.memplan.core.ir.OpKind;
import java.util.EnumSet;
import java.util.Set;

/**
 * How a graph becomes a GMEM problem.
 *
 * @param inputsLiveForever graph inputs keep their memory for the whole run, as in TPU-MLIR's
 *     default address mode ({@code updateLiveRangeofBMOps}: inputs live {@code [0, 0xFFFFFFFF]});
 *     when false they die after their last use ({@code IN_REUSE})
 * @param aliasKinds op kinds whose output is an in-place alias of their first input (no buffer of
 *     its own). TPU-MLIR's {@code BMAddressAssign::isInPlaceOp} makes Reshape and Identity in
 *     place; Flatten, Squeeze and Unsqueeze are rewritten to Reshape by the Top dialect's
 *     canonicalisation before address assignment, so they count as Reshape here
 */
public record GmemOptions(boolean inputsLiveForever, Set<OpKind> aliasKinds) {
  public GmemOptions {
    aliasKinds = aliasKinds.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(aliasKinds));
  }

  /** TPU-MLIR's BM168x defaults: inputs live forever; Reshape-like ops are aliases. */
  public static GmemOptions defaults() {
    return new GmemOptions(
        true,
        EnumSet.of(
            OpKind.RESHAPE, OpKind.FLATTEN, OpKind.SQUEEZE, OpKind.UNSQUEEZE, OpKind.IDENTITY));
  }

  public GmemOptions withInputsLiveForever(boolean value) {
    return new GmemOptions(value, aliasKinds);
  }

  public GmemOptions withAliasKinds(Set<OpKind> kinds) {
    return new GmemOptions(inputsLiveForever, kinds);
  }
}
