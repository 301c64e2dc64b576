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
 * @param inPlaceConcat a merge-only Concat ({@code ConcatFusePattern} sets {@code only_merge};
 *     {@code isInPlaceOp} then makes it in place) gets no copy: its operands are written straight
 *     into the Concat's buffer (see {@link GmemBuilder} for when a Concat qualifies)
 * @param inPlaceSlice a fusible Slice ({@code SliceOp::parseParam().fusible}) is an alias of its
 *     input at the byte offset of its start (see {@link GmemBuilder})
 */
public record GmemOptions(
    boolean inputsLiveForever,
    Set<OpKind> aliasKinds,
    boolean inPlaceConcat,
    boolean inPlaceSlice) {
  public GmemOptions {
    aliasKinds = aliasKinds.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(aliasKinds));
  }

  /**
   * TPU-MLIR's BM168x defaults (the CV18xx flow makes the same ops in place): inputs live forever;
   * Reshape-like ops are aliases; merge-only Concats and fusible Slices are in place, as the
   * address-assign pass does in static mode since 2022.
   */
  public static GmemOptions defaults() {
    return new GmemOptions(
        true,
        EnumSet.of(
            OpKind.RESHAPE, OpKind.FLATTEN, OpKind.SQUEEZE, OpKind.UNSQUEEZE, OpKind.IDENTITY),
        true,
        true);
  }

  public GmemOptions withInputsLiveForever(boolean value) {
    return new GmemOptions(value, aliasKinds, inPlaceConcat, inPlaceSlice);
  }

  public GmemOptions withAliasKinds(Set<OpKind> kinds) {
    return new GmemOptions(inputsLiveForever, kinds, inPlaceConcat, inPlaceSlice);
  }

  public GmemOptions withInPlaceConcat(boolean value) {
    return new GmemOptions(inputsLiveForever, aliasKinds, value, inPlaceSlice);
  }

  public GmemOptions withInPlaceSlice(boolean value) {
    return new GmemOptions(inputsLiveForever, aliasKinds, inPlaceConcat, value);
  }
}
