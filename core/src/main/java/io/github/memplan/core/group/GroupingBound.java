package io.github.memplan.core.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Tensor;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Lower bounds, under {@link RooflineCostModel}, on the total cycles and DDR bytes of
 * <em>every</em> valid grouping of a {@link GroupProblem} (one accepted by {@link
 * GroupingValidator}), and on the cycles and bytes of every valid group of a range of ops. Not an
 * algorithm of TPU-MLIR: a bound derived here from the cost model's class comment, the slicing of
 * {@link Slicing} and {@link OpSemantics#backward}, and the transfers of {@link V0Timesteps} and
 * {@link Timesteps2026}. The proof follows; {@link GroupingMetrics} reports it as {@code
 * lower-bound-cycles} and {@code lower-bound-ddr-bytes}.
 *
 * <h2>1. Decomposition</h2>
 *
 * A valid grouping's groups are disjoint contiguous ranges of at least two ops, each of groupable
 * ops only, so each lies inside one base group ({@link GroupProblem#baseGroups}); every other op is
 * global and costs exactly {@link RooflineCostModel#globalOp}. Ops in no base group are global in
 * every grouping. Inside a base group {@code [a..b]} a grouping induces a partition into contiguous
 * parts: its groups, and one part per global op. The total cost is the sum over parts, so
 *
 * <pre>
 *   total >= Σ_{ops outside base groups} globalOp
 *          + Σ_{base groups} min over partitions P of [a..b] of Σ_{part in P} lb(part)
 * </pre>
 *
 * where {@code lb} of a single op is its exact {@code globalOp} and {@code lb} of a range of at
 * least two ops is at most the cost of every valid group on that range (section 2). The minimum is
 * taken over <em>all</em> partitions, whether or not slicing, the h/2 rule or LMEM would accept the
 * ranges as groups: a superset of the valid groupings, so the minimum can only be lower. It is
 * computed exactly by a DP over prefix ends: {@code best[j] = min_i best[i - 1] + lb(i..j)}. The
 * cycles bound returned is the maximum of that and Σ whole-op TIU cycles ({@link #tiuSum}) when the
 * latter is a bound, which {@link Totals#tiuSumHolds} checks: every group computes every output
 * whole when, for every op of a base group and every operand produced in that base group, the
 * contribution (section 3) of the op's whole output is the operand's whole extent on every axis (by
 * induction from the range's last op, whose outputs are group outputs, every tensor of every range
 * is then covered whole). Otherwise the DP alone is returned.
 *
 * <h2>2. A group's cost</h2>
 *
 * By the cost model, a group's cycles are {@code Σ_(step, row) max(TIU, GDMA)} over the {@code L +
 * 2} pipeline steps and the table rows, so they are at least the sum of all its TIU terms and at
 * least the sum of all its GDMA terms; its DDR bytes are the sum of all its transfers.
 *
 * <ul>
 *   <li><b>TIU</b>: every op runs once per iteration on its output slice, costing {@code
 *       ceil(w·f_it)} with {@code w} its whole-op work in cycles and {@code f_it = Π_axis len /
 *       dim}; as the loop visits every combination of axis slices, {@code Σ_it f_it >= Π_axis
 *       |U_axis| / dim} with {@code U_axis} the union of the output's slice ranges, and {@code
 *       U_axis ⊇ Cov} (section 3). So the op contributes {@code (tiu(op) - 1) · Π_axis |Cov| / dim
 *       - 1} (one cycle for the ceiling of {@code tiu(op)}, one for the sum of ceilings and
 *       floating point, the allowances {@code RooflineBounds} of the solvers has always made).
 *       Usually the coverage is whole; it is not when the op's only in-group reader skips rows (a
 *       Slice with a step or an offset, a pool whose kernel is below its stride): then the group
 *       computes only part of the output and Σ whole-op TIU is <em>not</em> a bound.
 *   <li><b>GDMA</b>: {@code Σ_r ceil(b_r / bw) >= (Σ_r b_r) / bw >= gdma(Σ_r b_r) - 1}, with {@code
 *       Σ_r b_r} at least the bytes {@code B} below, so {@code gdma(B) - 1}.
 *   <li><b>Bytes</b> {@code B} that every valid group on the range moves. Both timestep methods put
 *       one transfer of every weight operand, of every group input and of every group output in the
 *       table (V0: a weight entry per use, each group input at its first user, each group output
 *       after its op; today: one buffer per value, each loaded at its first user, each group output
 *       stored); the cost model moves every non-held buffer in every iteration of the loop and a
 *       held one (only weights are ever held) once, weights whole. Recorded transfer moves ({@link
 *       TimestepMoves}) only change the row of a transfer, never which buffers are moved or in
 *       which iterations, so they leave these bytes unchanged. Hence:
 *       <ol>
 *         <li>every distinct weight (stored tensor) read by the range, whole, once;
 *         <li>every group output ({@link GroupBoundary}) whole: in every iteration its slice is
 *             stored, the loop visits every combination of axis slices, and the axis slices cover
 *             the axis (a partition, or its hull with in-group users' ranges), so the stored
 *             elements are at least the tensor's and {@code Σ ceil >= ceil Σ} for the byte
 *             rounding;
 *         <li>every group input {@code t}: {@code Π_axis |U_axis|} elements, {@code U_axis} the
 *             union of {@code t}'s slice ranges on that axis (the loop loads the slice of every
 *             combination of axis slices, and {@code Σ_combinations Π_axis len = Π_axis Σ len >=
 *             Π_axis |U_axis|}). How {@code |U_axis|} is bounded is section 3; it is at least 1 on
 *             every axis, as slice ranges are never empty.
 *       </ol>
 * </ul>
 *
 * So {@code lb(range) = max(Σ_ops (tiu - 2) + excess, gdma(B) - 1)} cycles and {@code B} bytes,
 * with {@code excess} the weight loads no TIU work can hide (section 4). All byte counts are exact
 * integers ({@code DType#bytes} of element counts), so no allowance is needed on bytes.
 *
 * <h2>3. Coverage: which rows of a group input must be loaded</h2>
 *
 * For a tensor {@code x} of the range and an axis, let {@code Cov(x)} be a set of indices that
 * every valid group on the range puts in the union of {@code x}'s slice ranges. Then:
 *
 * <ul>
 *   <li>A group output: {@code Cov = [0, D)} (its axis slices cover the axis, see 2.2).
 *   <li>A tensor read by in-group consumers {@code c} (operand {@code k}): {@code Cov(x) ⊇ ⋃_c
 *       contribution(c, k, Cov(out(c)))} where {@code out(c)} is {@code c}'s first output (the one
 *       {@link Slicing} slices {@code c} by). Three cases, as {@link Slicing#slice} does:
 *       <ul>
 *         <li><b>The axis has one sec</b>: every activation's slice is its whole axis {@code [0,
 *             D_x)}, which contains every subset of {@code [0, D_x)}; every contribution below is
 *             clipped to {@code [0, D_x)} (the tensor's own 4-D view), so this case is always
 *             covered.
 *         <li><b>More secs, an axis {@code c} can split</b> ({@link OpSemantics#allowSplit}): each
 *             output slice {@code r} of {@code c} gets the input range {@code backward(c, k, r)},
 *             and a tensor read by several users gets either identical ranges or their hull, a
 *             superset. Every {@code o} in {@code Cov(out(c))} lies in some slice {@code r}; if
 *             {@code backward} is monotone ({@code [o, o+1) ⊆ r ⇒ backward([o, o+1)) ⊆
 *             backward(r)}), the contribution {@code ⋃_{o in Cov(out(c))} backward([o, o+1))} is in
 *             the union. Single rows whose backward is empty contribute nothing.
 *         <li><b>More secs, an axis {@code c} cannot split</b>: slicing fails unless {@code c}'s
 *             output has a single slice {@code r} on that axis, and {@code r ⊇ hull(Cov(out(c)))};
 *             with {@code backward} monotone, the contribution is {@code backward(c, k,
 *             hull(Cov(out(c))))} (nothing when empty).
 *       </ul>
 * </ul>
 *
 * Monotonicity of every case of {@link OpSemantics#backward}: a broadcast operand gives {@code (0,
 * 1)} always; N and C of splittable ops, Slice (start + idx·step .. start + (end - 1)·step + 1),
 * Pad, MatMul/Softmax/LayerNorm on split axes and the default (element-wise, Concat off its axis)
 * are {@code [max(f(idx), 0), min(g(end), size))} with {@code f, g} non-decreasing; Conv/Pool the
 * same with the last slice extended to the end, and a single row is last only when every range
 * holding it is; ConvTranspose has a non-decreasing first index and last index, both clamped;
 * Upsample/Resize on BM1684X-family chips {@code [floor(idx/s), floor((end-1)/s)]}; the "whole or
 * nothing" cases (C of non-splittable ops, global pools, MatMul/Softmax/LayerNorm on unsplittable
 * axes) return the whole input only for the whole output, which is monotone. One case is not
 * monotone in the sense above: Upsample/Resize off the BM1684X family answer only ranges aligned to
 * the scale {@code s} ({@code [idx/s, end/s)}), so a single row has no backward; there the row
 * {@code o} contributes {@code floor(o/s)}, which lies in {@code [idx/s, end/s)} for every aligned
 * range holding {@code o}, the only ones slicing accepts.
 *
 * <p>For a range {@code [i..j]} of the order, whether a tensor defined at position {@code p >= i}
 * is a group output depends on {@code j} only (its users come after {@code p}), so {@code sweep}
 * walks {@code i} from {@code j} down, keeping each open tensor's coverage: when op {@code i} is
 * reached, its output's coverage is final (group output: whole; else the union its in-range
 * consumers contributed), it stops being a group input, and its operands receive their
 * contributions. Each step costs one op's operands; the DP needs one sweep per {@code j}.
 *
 * <h2>4. Weight loads that no TIU work hides</h2>
 *
 * Write the group's cycles as a sum over cells {@code c = (step, row)} of {@code max(T_c, G_c)}
 * ({@code T_c} the row's TIU cycles in that step, {@code G_c} its GDMA cycles). Then {@code Σ_c
 * max(T_c, G_c) = Σ_c T_c + Σ_c (G_c - T_c)^+ >= Σ_c T_c + Σ_{c in S} (G_c - T_c)} for every set
 * {@code S} of cells, and {@code Σ_c T_c} is at least section 2's TIU term. Take {@code S} the
 * cells holding the iteration-0 load of the weights of a set {@code W}, plus those of the first
 * op's weights:
 *
 * <ul>
 *   <li><b>Each weight is loaded whole in iteration 0</b> (held or not), in one cell. {@code G_c =
 *       gdma(Σ bytes of c) >= Σ_{x in c} (gdma(b_x) - 1)} (a ceiling of a sum against a sum of
 *       ceilings), so weights sharing a cell count each, less one cycle.
 *   <li><b>Iteration 0's loads run in step 0 or step 1</b>: loads have stage 0 or 1 (stage 2 holds
 *       only stores, in both methods and after any recorded move), and a transfer of stage {@code
 *       s} works on iteration {@code t - s} in step {@code t}. Step 0 has no TIU work (TIU ops work
 *       on iteration {@code t - 1}), so there {@code T_c = 0}; in step 1, {@code T_c} is the TIU
 *       cycles of iteration 0 of the row's ops, at most their whole-op cycles {@code tiu(op)} (a
 *       slice's fraction is at most 1).
 *   <li><b>The first op's weights are loaded where no TIU runs</b>: they are loaded before the
 *       first op runs in iteration 0, which is the first TIU work of the group (today: loaded in
 *       row 0, so of stage 0, hence in step 0 for iteration 0 whichever row the pipeline or the
 *       rebalancing moves them to; without the pipeline, in row 0, which runs no TIU op; v0: in the
 *       row before the first op's, which runs none either; recorded moves never take a transfer
 *       before the first TIU row). So they add {@code gdma(b) - 1} each, in full.
 *   <li><b>Segments.</b> Cut the range before every op that reads a weight (and at its first op). A
 *       row of either method never holds ops of two segments: today's rows run one op each, and in
 *       v0 an op that reads a weight has a load entry right before it, which makes the op start a
 *       new timestep ({@code walk}). Distinct cells of step 1 are distinct rows, holding distinct
 *       ops, so the {@code T_c} of {@code k} distinct cells of step 1 sum to at most the whole-op
 *       TIU of the (at most {@code k}) segments their rows lie in, at most the {@code k} largest
 *       segment sums.
 * </ul>
 *
 * <p><b>Head term.</b> A weight is loaded before its first reader runs, so in iteration 0 the
 * weights first read by ops {@code i+1..q} (op {@code i} the range's first, whose own weights are
 * counted in full above) are loaded in step 0 or beside the TIU work of ops {@code i..q-1} only
 * (rows before their reader's hold earlier ops; today's loads, moved or not, stay before their
 * reader's row, v0 loads one row before the reader). Their {@code Σ g} less {@code Σ_{i <= o < q}
 * tiu(o)} is then a lower bound on their excess too, for each {@code q} among the first 16 ops
 * after {@code i}. It and the matching below count the same cells, so the bound takes the larger of
 * the two, not the sum.
 *
 * <p>Hence, with the other weights' {@code g_x = gdma(b_x) - 1} sorted from the largest and the
 * segment sums {@code σ_1 >= σ_2 >= ...} (0 past the last segment: more weights than segments share
 * segments, whose TIU is then already counted), choosing {@code W} the {@code k} largest gives
 * {@code excess >= Σ_{first op's weights} g + max(head, max_k Σ_{j <= k} (g_j - σ_j))}, for every
 * valid group of the range at every secs, held or not, under both methods. Only the 32 largest
 * weights and segments are looked at; when segments were left out, a position past the kept ones
 * counts as the smallest kept. {@code GroupingBoundTest} works an example by hand and shows that a
 * bound charging every weight in full (no overlap with TIU) is caught by its check against every
 * secs. On resnet18 (INT8, bm1684x) the three 2.25 MiB weights of layer 4 take 36864 GDMA cycles
 * each against at most 28812 TIU cycles in any row: about 24000 cycles no grouping can hide.
 *
 * <p><b>Group types.</b> The coverage above is computed in the normal layout with the split rules
 * of GROUP_NORMAL for N, H and W (GROUP_MM splits those axes alike) and, for C, of GROUP_MM for the
 * ops that may be in a GROUP_MM group ({@link GroupType#mayJoinMm}), of GROUP_NORMAL for the
 * others, which are only ever in groups whose C has one sec (NORMAL) or in SMALL_C groups. It is
 * valid for every group type: (a) a group whose C has one sec holds every tensor whole on C (the
 * first case), whatever C rule gave the contribution; (b) a GROUP_MM group with more C secs splits
 * C by the rules used here: {@code BackwardC} is the identity where an op splits C and a MatMul's
 * right operand is read whole, both monotone, and an op that does not split C leaves the max csecs
 * at 1 ({@code get_group_max_secs} asks every op), so case (a); (c) a GROUP_SMALL_C group lays its
 * tensors out differently ({@link GroupType#view}), but its ops are all element-wise or work on the
 * last axis, with the identity or the whole axis as backward on the view: as its output slices
 * partition every axis of the view, every tensor of the group, inputs included, is computed or
 * loaded whole, and every op computes its whole output, which is at least what the bound counts
 * (the bytes of {@code Π |Cov|} elements never exceed the whole tensor's, and the TIU share is at
 * most 1). GROUP_NORMAL's C rule would not do for (b): a non-splitting op's contribution of a
 * partial coverage is its whole input, which a GROUP_MM group need not load.
 *
 * <p><b>Pieces switched off</b> ({@link Pieces}). A grouping of {@code tpumlir-greedy} or {@code
 * tpumlir-dp} with pieces off is validated under the rules and the table variant it names, and the
 * bound computed here (with every piece) holds for it too: without the Reshape local rule fewer ops
 * are groupable, so its groups lie inside the base groups used here; without group types every
 * group is GROUP_NORMAL with one C sec, case (a); without the hull two users must need identical
 * slices, a special case of the hull; without the pipeline every transfer is in stage 1, and the
 * group still costs {@code Σ_(step, row) max(TIU, GDMA)}; without rebalancing transfers keep their
 * rows, which section 2 never uses; without holds weights are moved in every iteration, at least
 * once; in-place pairs and the search pieces change no cost term.
 *
 * <p>Note that a Conv's backward takes {@code (len - 1)·s + max(kernel, s)} rows, so even a 1x1
 * stride-2 conv needs every input row; Slice with a step and pools with a kernel below their stride
 * are where coverage is partial.
 *
 * <h2>5. LMEM: ranges no group can hold, weights the LMEM keeps from loading early</h2>
 *
 * A valid group's LMEM instance passes {@code LmemValidator}: the buffers live in one row fit one
 * lane's LMEM side by side, except the in-place pairs ({@link InPlaceOps}: an op's operand 0 and
 * result 0, never on CV18xx). Every table, of every method, with or without recorded moves, keeps
 * alive in the row of an op {@code p} its operands and results ({@link BufferLifetimes}: a loaded
 * buffer from its load row to its last reader, a result from its op's row to its last reader or
 * store), so every activation of the range between the first and the last op of the range that
 * touches it, and the weights of the next op {@code p + 1} (loaded before {@code p + 1} runs: in v0
 * in the row of {@code p}, today in a row before {@code p + 1}'s, which is {@code p}'s row or
 * earlier; both hold until {@code p + 1} reads them). One buffer per value (v0's weight per use is
 * more). A buffer's per-lane bytes are those of its largest slice per axis ({@code V0Timesteps
 * #bytes}, monotone in each extent) or, for a weight, its whole size ({@link
 * OpSemantics#weightLmemBytes}; the least over its readers).
 *
 * <p><b>Slice extents.</b> For a GROUP_NORMAL group (the only type whose split rules are used here;
 * a range today's rules type otherwise is never claimed), each tensor {@code t} and axis gets a
 * family of intervals, each inside the slice of <em>some</em> iteration, so the buffer's extent is
 * at least the longest: a group output's slices cover its axis, so each of its rows is one; an
 * interval {@code I} of an op's output gives its operand the hull of the single-row backwards of
 * {@code I} (inside the backward of the slice holding {@code I}, by section 3's monotonicity); an
 * op that cannot split the axis has one slice, holding every interval and the coverage; and an axis
 * on which the range runs one sec (section 6) holds every tensor whole on H and W, the coverage on
 * N and C. So the bytes counted in a row are at most the bytes live there, at every secs, for every
 * method: the range holds no group when a row's count exceeds the lane.
 *
 * <p><b>Folded methods</b> ({@link TimestepMethod#foldsAcrossIterations}: today's, with the 3-stage
 * pipeline; {@link #forMethod}). The first op's operands are loaded by a stage-0 transfer that the
 * pipeline folds into the last row (or leaves in a first row that no op reads from, when the last
 * op reads it), and no move takes a stage-0 load before the last row that touches it ({@link
 * TimestepMoves}): they live in the last op's row too. The last op's group outputs are stored by a
 * stage-2 transfer folded into the first op's row or later (moves keep it at or after the first
 * compute row): they live in the first op's row too. These tables run one op per row, so a weight
 * {@code x} first read by op {@code q} (not the first) is loaded in iteration 0 in step 1 in the
 * row of some op {@code r < q} and lives from there to {@code q}; a row whose count leaves no room
 * for {@code x} cannot be in that span, so {@code x}'s load lies in a window {@code [e_x, q - 1]}
 * of ops. For windows that overlap into one component {@code U} and a set {@code X} of its weights,
 * the cells holding their loads lie in {@code U}'s rows, distinct cells count their TIU once, so
 * section 4's sum gives {@code Σ_X g_x - Σ} of the {@code |X|} largest whole-op TIU cycles of
 * {@code U} (more weights than rows share cells), and the best single weight less the largest TIU
 * of its own window; components are disjoint, so they add. This term uses the same cells as section
 * 4's matching and head term: the bound takes the largest of the three. Only the first 32 ops of a
 * window are looked at; a window that reaches further is taken to start at the range's first op
 * (longer windows only loosen); and only in ranges of at most 256 ops, for their 32 largest loads
 * (fewer weights only loosen), which keeps the bound of a 1000-op chain to seconds.
 *
 * <h2>6. Iterations: the first op's loads and the last op's stores</h2>
 *
 * In iteration 0 the first op's operands are loaded before any TIU op runs (step 0, or rows of step
 * 1 before the first op's), and in the last iteration the last op's group outputs are stored after
 * every TIU op (step {@code L + 1}, or rows of step {@code L} after the last op's): cells where
 * {@code T_c = 0}, distinct from each other and from section 4's cells of step 1 between. So they
 * add {@code gdma(b) - 1} each, {@code b} the bytes of the iteration's slice:
 *
 * <ul>
 *   <li><b>One iteration.</b> {@link Slicing} cuts every group output into as many slices as the
 *       secs of an axis (failing when a slice comes out empty), every tensor gets that many, and an
 *       op that cannot split the axis fails with more than one. So the range runs one iteration on
 *       an axis when some op reading an activation cannot split it (GROUP_NORMAL's rules,
 *       GROUP_MM's alike on N, H and W, and GROUP_MM's for C when today's rules type the range
 *       GROUP_MM; never claimed for GROUP_SMALL_C), or some group output has one row on it. Off the
 *       BM1684X family also when slicing must refuse: W has one sec there ({@link Slicing}); an
 *       input slice after the first may neither start at row 0 nor end where the one before ends,
 *       so an axis runs one sec when the input some op needs for its whole output is one row (every
 *       slice needs that row), or when some op's input slice 2 must start at row 0: slice 2 of a
 *       group output starts at most at {@code ceil(D / 2)} (its first slice is the longest), of
 *       other tensors at most where their readers' slice 2 needs them (the hull takes the least
 *       start), and the start of an op's input never decreases with the start of its output
 *       (section 3). With one iteration on every axis, the first op's operands are loaded with
 *       their coverage (section 3) and the last op's group outputs are stored whole.
 *   <li><b>More iterations</b> (GROUP_NORMAL ranges): iteration 0 holds every axis's first slice,
 *       which holds row 0 of every group output, and each operand the backward of what its reader
 *       holds: the first op's operands are loaded with at least those rows (the coverage on C and
 *       on the axes of one sec); the last iteration stores of the last op's group outputs at least
 *       one row of every split axis, whole on C and on the axes of one sec.
 * </ul>
 *
 * <h2>7. Every secs of a range, for groupings sliced under known rules</h2>
 *
 * A {@link Grouping} names the slicing rules its groups are sliced under ({@link Grouping#rules})
 * and {@link GroupingValidator} slices each group under them. For the groupings of a folding method
 * sliced under given rules ({@link #forGroupings}), a range's bound is the larger of sections 2 to
 * 6 and {@link SlicedBound#best}: the least, over every secs that slicing accepts for the range and
 * that the rules allow ({@link ShapeSecsBounds#whyOutOfBounds}), of a bound on every valid group at
 * that secs. At one secs the slices are known, so that bound counts the halo rows every iteration
 * computes and loads, the pipeline's first and last iterations at their real slices, the transfers
 * of each step that no TIU row of that step can absorb (within what the LMEM leaves free, for the
 * first and last iterations), and no group at all where the live bytes of a row overflow the lane
 * (its class comment has the proof). Computing it walks a box of secs per range, so the DP refines
 * lazily: it finds the least partition with every range at its section 2 bound, replaces the bounds
 * of the ranges that partition uses by their section 7 bounds, and repeats until the least
 * partition uses refined ranges only. Each refined value is a bound of its range and every other
 * value is too, so the partition's sum is a bound at every step; a range whose walk would exceed
 * the work left ({@code REFINE_WORK}, which keeps yolov3 and yolov5s to about 12 s) keeps its
 * section 2 bound. Bytes are refined the same way. Not for v0's tables, whose transfers are not
 * staged, nor for groupings whose rules are unknown ({@link #forMethod}).
 *
 * <p>What the bound ignores (so where it is loose): H/W margins, the barrier between rows beyond
 * the weights of sections 4, 5 and 7, slicing's refusals other than those of sections 6 and 7, for
 * a range that today's rules type GROUP_MM or GROUP_SMALL_C section 5, and for ranges section 7
 * does not refine (other methods, unknown rules, out of work) everything it adds.
 */
public final class GroupingBound {
  private final RooflineCostModel model;
  private final GroupProblem problem;
  private final boolean folded;
  private final SliceRules rules;
  private final Graph graph;
  private final Chip chip;
  private final List<Op> order;
  private final long[] tiu;
  private final Map<String, Integer> lastUser = new HashMap<>();
  private final Map<String, Integer> producerPos = new HashMap<>();
  private final Map<Long, BitSet> fullContribution = new HashMap<>();
  private final Map<Long, Range[]> rows = new HashMap<>();
  private final Map<String, Long> weightLmem = new HashMap<>();
  private Totals totals;

  /** Per last op of a base group, the bounds of the ranges ending there ({@link #part}). */
  private final Map<Integer, Part[]> parts = new HashMap<>();

  /** Longest range whose bounds {@link #computeTotals} keeps for {@link #part}. */
  private static final int KEPT_RANGE = 1024;

  /** The bound of one part (a range of ops as one group): cycles and bytes. */
  public record Part(long cycles, long bytes) {
    /** Whether no valid group holds the range (section 5). */
    public boolean noGroup() {
      return cycles >= NO_GROUP_COST;
    }
  }

  /**
   * The cost {@link #part} gives a range that no valid group holds (section 5): larger than any
   * grouping's, small enough that sums of a few never overflow.
   */
  public static final long NO_GROUP_COST = Long.MAX_VALUE / 8;

  private static final Part NO_GROUP = new Part(NO_GROUP_COST, NO_GROUP_COST);

  /** The whole-problem bounds. */
  /**
   * The whole-problem bounds.
   *
   * @param cycles the cycles bound
   * @param ddrBytes the DDR bytes bound
   * @param tiuSum Σ whole-op TIU cycles
   * @param tiuSumHolds whether {@code tiuSum} is itself a bound (then {@code cycles >= tiuSum})
   */
  public record Totals(long cycles, long ddrBytes, long tiuSum, boolean tiuSumHolds) {}

  public GroupingBound(RooflineCostModel model, GroupProblem problem) {
    this(model, problem, false);
  }

  /**
   * The bounds of the groupings whose timestep method folds transfers across the loop boundary
   * ({@link TimestepMethod#foldsAcrossIterations}) when {@code folded}, which section 5 tightens;
   * of every valid grouping otherwise.
   */
  public GroupingBound(RooflineCostModel model, GroupProblem problem, boolean folded) {
    this(model, problem, folded, null);
  }

  /**
   * As {@link #GroupingBound(RooflineCostModel, GroupProblem, boolean)}, and when {@code folded}
   * and {@code rules} is not null, the bounds of the groupings sliced under {@code rules} only,
   * which section 7 tightens.
   */
  public GroupingBound(
      RooflineCostModel model, GroupProblem problem, boolean folded, SliceRules rules) {
    this.folded = folded;
    this.rules = folded ? rules : null;
    this.model = model;
    this.problem = problem;
    this.graph = problem.graph();
    this.chip = problem.chip();
    this.order = problem.order();
    this.tiu = new long[order.size()];
    Set<String> graphOutputs = new HashSet<>(graph.outputs());
    for (int i = 0; i < order.size(); i++) {
      Op op = order.get(i);
      tiu[i] = model.tiuCycles(graph, op, chip);
      for (String t : op.outputs()) {
        producerPos.put(t, i);
      }
      for (String t : op.inputs()) {
        if (!t.isEmpty()) {
          lastUser.merge(t, i, Math::max);
        }
      }
    }
    for (Op op : order) {
      for (String t : op.outputs()) {
        if (graphOutputs.contains(t) || !lastUser.containsKey(t)) {
          lastUser.put(t, Integer.MAX_VALUE);
        }
      }
    }
  }

  /** The problem's bounds under a default {@link RooflineCostModel}. */
  public static GroupingBound of(GroupProblem problem) {
    return new GroupingBound(new RooflineCostModel(), problem);
  }

  /**
   * The bounds of the groupings built with the timestep method {@code methodId} (tighter when it
   * folds transfers across iterations, section 5), under {@code model}.
   */
  public static GroupingBound forMethod(
      RooflineCostModel model, GroupProblem problem, String methodId) {
    return new GroupingBound(model, problem, folds(methodId));
  }

  /**
   * The bounds of the groupings built with the timestep method {@code methodId} and sliced under
   * {@code rules} (a {@link Grouping}'s own: {@link Grouping#timestepMethod}, {@link
   * Grouping#rules}), tighter when the method folds transfers across iterations (sections 5 and 7),
   * under {@code model}.
   */
  public static GroupingBound forGroupings(
      RooflineCostModel model, GroupProblem problem, String methodId, SliceRules rules) {
    return new GroupingBound(model, problem, folds(methodId), rules);
  }

  /**
   * Whether the timestep method {@code methodId} folds transfers across iterations ({@link
   * TimestepMethod#foldsAcrossIterations}); false for null or an unknown id.
   */
  public static boolean folds(String methodId) {
    try {
      return methodId != null && TimestepMethod.get(methodId).foldsAcrossIterations();
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** Whether these are the bounds of groupings whose method folds across iterations. */
  public boolean folded() {
    return folded;
  }

  /** The slicing rules section 7 slices under, or null when it is not applied. */
  public SliceRules rules() {
    return rules;
  }

  /** The problem. */
  public GroupProblem problem() {
    return problem;
  }

  /** Σ whole-op TIU cycles over the order (the bound {@link GroupingMetrics} had before). */
  public long tiuSum() {
    return totals().tiuSum();
  }

  /** A lower bound on the total cycles of every valid grouping (section 1). */
  public long cycles() {
    return totals().cycles();
  }

  /** A lower bound on the DDR bytes of every valid grouping (section 1, on bytes). */
  public long ddrBytes() {
    return totals().ddrBytes();
  }

  /** Both whole-problem bounds, computed once. */
  public Totals totals() {
    if (totals == null) {
      totals = computeTotals();
    }
    return totals;
  }

  /**
   * The bound on every valid group of the ops {@code first..last} (positions in the order, {@code
   * first < last}, all groupable): section 2.
   */
  public Part part(int first, int last) {
    if (first >= last) {
      throw new IllegalArgumentException("a group needs two ops or more: " + first + ".." + last);
    }
    totals(); // the whole-problem DP sweeps every range of every base group, and keeps them
    Part[] kept = parts.get(last);
    if (kept != null && first >= last + 1 - kept.length) {
      return kept[first - (last + 1 - kept.length)];
    }
    Part[] out = new Part[1];
    sweep(last, first, (i, part) -> out[0] = part);
    return out[0];
  }

  private Totals computeTotals() {
    long tiuSum = 0;
    for (long t : tiu) {
      tiuSum += t;
    }
    boolean[] inBase = new boolean[order.size()];
    long cycles = 0;
    long bytes = 0;
    for (int[] bg : problem.baseGroups()) {
      int a = bg[0];
      int n = bg[1] - a + 1;
      long[] bestCycles = new long[n + 1];
      long[] bestBytes = new long[n + 1];
      for (int j = 1; j <= n; j++) {
        int last = a + j - 1;
        inBase[last] = true;
        var single = model.globalOp(graph, order.get(last), chip);
        long[] c = {bestCycles[j - 1] + single.cycles()};
        long[] b = {bestBytes[j - 1] + single.ddrBytes()};
        Part[] kept = j <= KEPT_RANGE ? new Part[j] : null;
        if (kept != null) {
          parts.put(last, kept);
        }
        sweep(
            last,
            a,
            (i, part) -> {
              if (kept != null) {
                kept[i - a] = part;
              }
              if (i < last) {
                c[0] = Math.min(c[0], bestCycles[i - a] + part.cycles());
                b[0] = Math.min(b[0], bestBytes[i - a] + part.bytes());
              }
            });
        bestCycles[j] = c[0];
        bestBytes[j] = b[0];
      }
      if (rules != null && n <= KEPT_RANGE) {
        cycles += refined(a, n, Part::cycles, bestCycles[n]);
        bytes += refined(a, n, Part::bytes, bestBytes[n]);
      } else {
        cycles += bestCycles[n];
        bytes += bestBytes[n];
      }
    }
    for (int i = 0; i < order.size(); i++) {
      if (!inBase[i]) {
        var global = model.globalOp(graph, order.get(i), chip);
        cycles += global.cycles();
        bytes += global.ddrBytes();
      }
    }
    boolean holds = tiuSumHolds();
    return new Totals(holds ? Math.max(cycles, tiuSum) : cycles, bytes, tiuSum, holds);
  }

  /** Section 7's refined bounds per base group (by its first op): {@code [j - 1][first - a]}. */
  private final Map<Integer, Part[][]> refinedByBase = new HashMap<>();

  /**
   * Section 7's work left ({@link SlicedBound#work}): a range whose walk would exceed it keeps
   * section 2's bound, which keeps the bound of the largest models to seconds.
   */
  private long refineWorkLeft = REFINE_WORK;

  /** Section 7's work per problem. */
  static final long REFINE_WORK = 2_400_000_000L;

  /**
   * Section 7: the least sum over partitions of the base group of {@code n} ops from {@code a},
   * each range of two ops or more bounded by the larger of section 2's bound and {@link
   * SlicedBound#best}, refined lazily: the ranges of the cheapest partition found are refined until
   * that partition holds only refined ranges. A range past the work left ({@link #REFINE_WORK})
   * keeps section 2's bound: every range's value is a bound either way.
   */
  private long refined(int a, int n, java.util.function.ToLongFunction<Part> of, long analytic) {
    SlicedBound sliced = new SlicedBound(model, graph, chip);
    Part[][] refinedParts = refinedByBase.computeIfAbsent(a, x -> new Part[n][]);
    long[] best = new long[n + 1];
    int[] from = new int[n + 1];
    while (true) {
      for (int j = 1; j <= n; j++) {
        int last = a + j - 1;
        Part[] kept = parts.get(last);
        best[j] = best[j - 1] + of.applyAsLong(global(last));
        from[j] = j - 1;
        for (int i = a; i < last; i++) {
          Part r = refinedParts[j - 1] == null ? null : refinedParts[j - 1][i - a];
          long v = best[i - a] + of.applyAsLong(r != null ? r : kept[i - a]);
          if (v < best[j]) {
            best[j] = v;
            from[j] = i - a;
          }
        }
      }
      boolean changed = false;
      for (int j = n; j > 0; j = from[j]) {
        int first = a + from[j];
        int last = a + j - 1;
        if (first == last
            || refinedParts[j - 1] != null && refinedParts[j - 1][first - a] != null) {
          continue;
        }
        Part general = parts.get(last)[first - a];
        List<Op> ops = order.subList(first, last + 1);
        long work = general.noGroup() ? 0 : sliced.work(ops, rules);
        Part part = general;
        if (work <= refineWorkLeft) { // else the range keeps section 2's bound
          part = general.noGroup() ? general : sliced.best(ops, rules);
          refineWorkLeft -= work;
        }
        if (refinedParts[j - 1] == null) {
          refinedParts[j - 1] = new Part[j - 1];
        }
        refinedParts[j - 1][first - a] =
            new Part(
                Math.max(general.cycles(), part.cycles()), Math.max(general.bytes(), part.bytes()));
        changed = true;
      }
      if (!changed) {
        return best[n];
      }
    }
  }

  private Part global(int pos) {
    var g = model.globalOp(graph, order.get(pos), chip);
    return new Part(g.cycles(), g.ddrBytes());
  }

  /** Whether every group computes every op's output whole (section 1). */
  private boolean tiuSumHolds() {
    for (int[] bg : problem.baseGroups()) {
      for (int pos = bg[0]; pos <= bg[1]; pos++) {
        Op op = order.get(pos);
        BitSet[] out = whole(graph.tensor(op.outputs().get(0)));
        for (int k = 0; k < op.inputs().size(); k++) {
          String t = op.inputs().get(k);
          Integer producer = producerPos.get(t);
          if (!GroupBoundary.isActivation(graph, t) || producer == null || producer < bg[0]) {
            continue;
          }
          BitSet[] need = whole(graph.tensor(t));
          for (Axis a : Axis.values()) {
            BitSet missing = (BitSet) need[a.ordinal()].clone();
            missing.andNot(contribution(pos, k, a, out[a.ordinal()]));
            if (!missing.isEmpty()) {
              return false;
            }
          }
        }
      }
    }
    return true;
  }

  /** Receives the bound of the range {@code i..last} of a sweep. */
  @FunctionalInterface
  private interface PartSink {
    void accept(int first, Part part);
  }

  /** The coverage of one open tensor: per axis, the indices every valid group loads. */
  private static final class Cover {
    final Tensor tensor;
    final long[] dims;
    final BitSet[] axes = new BitSet[4];
    long bytes;

    Cover(Tensor tensor) {
      this.tensor = tensor;
      Nchw s = Nchw.of(tensor.shape());
      this.dims = new long[] {s.n(), s.c(), s.h(), s.w()};
      for (int a = 0; a < 4; a++) {
        axes[a] = new BitSet();
      }
    }

    void add(int axis, BitSet rows) {
      axes[axis].or(rows);
      int d = (int) dims[axis];
      if (axes[axis].length() > d) {
        axes[axis].clear(d, axes[axis].length());
      }
    }

    long measure() {
      long e = 1;
      for (int a = 0; a < 4; a++) {
        e = Math.multiplyExact(e, atLeastOne(axes[a].cardinality(), dims[a]));
      }
      bytes = tensor.dtype().bytes(e);
      return bytes;
    }
  }

  /**
   * Walks {@code i} from {@code last} down to {@code stop} and gives the bound of every range
   * {@code i..last} (a single op too: the sink decides what to do with it).
   */
  private void sweep(int last, int stop, PartSink sink) {
    Set<String> weights = new HashSet<>();
    long weightBytes = 0;
    long outBytes = 0;
    long inBytes = 0;
    double tiuSum = 0;
    Map<String, Cover> open = new HashMap<>();
    Map<String, Family[]> within = new HashMap<>(); // section 5: intervals inside some slice
    boolean overflows = false; // section 5: some row of i..last overflows the LMEM (NORMAL group)
    Rows live = new Rows(last - stop + 1);
    Map<String, Integer> weightFirst = new HashMap<>(); // each weight's first reader so far
    Map<String, Integer> heavy = new HashMap<>(); // those of them loading longer than q - 1 runs
    boolean allSmallC = true;
    boolean allMm = true;
    // section 6: which axes no valid group of i..last can loop over
    boolean[] unsplit = new boolean[4]; // some op reading an activation cannot split it (NORMAL)
    boolean mmUnsplitC = false; // the same for C in a GROUP_MM group
    boolean[] oneRow = new boolean[4]; // some group output has one row on it
    Map<String, long[]> second = new HashMap<>(); // section 6: where each slice 2 starts, at most
    List<Map<String, long[]>> seconds = new java.util.ArrayList<>(); // the same at SPLITS secs
    for (int k = 0; k < SPLITS.length; k++) {
      seconds.add(new HashMap<>());
    }
    int mostSecsH = Integer.MAX_VALUE; // section 6: no valid slicing of i..last has more H secs
    boolean restarts = !OpSemantics.bm1684xFamily(chip);
    unsplit[Axis.W.ordinal()] = restarts; // W is never split there (Slicing)
    Map<String, long[]> firstSlice = new HashMap<>(); // section 6: rows iteration 0 holds
    long drain = lastSlicesDrain(last, EVERY_AXIS); // section 6 with one iteration: whole
    TopList weightLoads = new TopList(EXCESS_TERMS + 8);
    TopList closedSegments = new TopList(EXCESS_TERMS);
    long firstSegment = 0;
    for (int i = last; i >= stop; i--) {
      Op op = order.get(i);
      // section 4: the segment of op i (a new one when op i + 1 reads a weight)
      if (i < last && hasWeight(order.get(i + 1))) {
        closedSegments.add(firstSegment, null);
        firstSegment = 0;
      }
      firstSegment += tiu[i];
      BitSet[] outCov = null;
      for (String t : op.outputs()) {
        Cover c = open.remove(t);
        if (c != null) {
          inBytes -= c.bytes;
        }
        boolean groupOut = lastUser.getOrDefault(t, Integer.MAX_VALUE) > last;
        if (groupOut) {
          outBytes += graph.tensor(t).bytes();
        }
        if (outCov == null) {
          outCov =
              groupOut
                  ? whole(graph.tensor(t))
                  : c == null ? new Cover(graph.tensor(t)).axes : c.axes;
        }
      }
      for (int k = 0; k < op.inputs().size(); k++) {
        String t = op.inputs().get(k);
        if (t.isEmpty()) {
          continue;
        }
        if (isWeight(t)) {
          if (weights.add(t)) {
            weightBytes += graph.tensor(t).bytes();
            weightLoads.add(weightCycles(t), t);
          }
          weightFirst.put(t, i);
          if (i > 0 && weightCycles(t) > tiu[i - 1]) {
            heavy.put(t, i);
          } else {
            heavy.remove(t);
          }
          continue;
        }
        Cover c = open.computeIfAbsent(t, x -> new Cover(graph.tensor(x)));
        inBytes -= c.bytes;
        for (Axis a : Axis.values()) {
          c.add(a.ordinal(), contribution(i, k, a, outCov[a.ordinal()]));
        }
        inBytes += c.measure();
      }
      if (op.inputs().stream().anyMatch(t -> !t.isEmpty() && !isWeight(t))) {
        for (Axis a : Axis.values()) {
          unsplit[a.ordinal()] |= !OpSemantics.allowSplit(graph, op, a, GroupType.NORMAL);
        }
        mmUnsplitC |= !OpSemantics.allowSplit(graph, op, Axis.C, GroupType.MM);
      }
      for (String t : op.outputs()) {
        if (lastUser.getOrDefault(t, Integer.MAX_VALUE) > last) {
          Nchw v = Nchw.of(graph.tensor(t).shape());
          for (Axis a : Axis.values()) {
            oneRow[a.ordinal()] |= v.dim(a) == 1;
          }
        }
      }
      boolean fewerSecs = false;
      if (restarts) {
        trackRestarts(i, last, second, 2, unsplit);
        for (int k = 0; k < SPLITS.length; k++) { // more secs refused: the first slice is longer
          if (SPLITS[k] - 1 < mostSecsH) {
            boolean[] refused = new boolean[4];
            trackRestarts(i, last, seconds.get(k), SPLITS[k], refused);
            if (refused[Axis.H.ordinal()]) {
              mostSecsH = SPLITS[k] - 1;
              fewerSecs = true;
            }
          }
        }
      }
      if (!overflows) {
        overflows =
            addRow(i, stop, last, outCov, open, within, live, single(unsplit, oneRow))
                > chip.lmemBytesPerLane();
      }
      tiuSum +=
          Math.max(
              0, Math.max(0, tiu[i] - 1) * fraction(graph.tensor(op.outputs().get(0)), outCov) - 1);
      long bytes = weightBytes + outBytes + inBytes;
      long gdma = Math.max(0, model.gdmaCycles(bytes, chip) - 1);
      // GroupType.of of i..last, kept op by op: SMALL_C and MM ask every op alike
      allSmallC &= GroupType.smallC(graph, List.of(op), chip);
      allMm &= GroupType.mm(graph, List.of(op), chip);
      GroupType type =
          i == last || chip.isCv18xx() || chip.name().equals("bm1684")
              ? GroupType.NORMAL
              : allSmallC ? GroupType.SMALL_C : allMm ? GroupType.MM : GroupType.NORMAL;
      boolean normal = i < last && type == GroupType.NORMAL;
      long window =
          folded && normal && last - i < WINDOW_RANGE ? windowExcess(i, stop, heavy, live) : 0;
      long excess = weightExcess(op, weightLoads, closedSegments, firstSegment, i, last, window);
      if (fewerSecs) { // the group outputs' first slices grew: again from the last op
        firstSlice.clear();
        for (int p = last; p >= i; p--) {
          trackFirstSlices(p, last, firstSlice, mostSecsH);
        }
      } else {
        trackFirstSlices(i, last, firstSlice, mostSecsH);
      }
      if (i < last && oneIteration(type, unsplit, mmUnsplitC, oneRow)) {
        excess += drain + firstSlicesFill(op, open, firstSlice, EVERY_AXIS);
      } else if (normal) {
        boolean[] one = single(unsplit, oneRow);
        excess += lastSlicesDrain(last, one) + firstSlicesFill(op, open, firstSlice, one);
      }
      if (normal && (overflows || folded && foldedOverflow(i, stop, last, within, live))) {
        sink.accept(i, NO_GROUP);
      } else {
        sink.accept(i, new Part(Math.max((long) Math.floor(tiuSum) + excess, gdma), bytes));
      }
    }
  }

  /**
   * Section 6: whether every valid group of {@code i..last} runs one iteration: on each axis, some
   * group output has one row or some op that reads an activation cannot split the axis, under every
   * group type the range can have (GROUP_NORMAL under every rules but today's, and today's type; a
   * GROUP_SMALL_C range, laid out differently, is never claimed).
   */
  private static boolean oneIteration(
      GroupType today, boolean[] unsplit, boolean mmUnsplitC, boolean[] oneRow) {
    for (boolean one : single(unsplit, oneRow)) {
      if (!one) {
        return false;
      }
    }
    return today == GroupType.NORMAL
        || today == GroupType.MM && (mmUnsplitC || oneRow[Axis.C.ordinal()]);
  }

  /**
   * Section 6: whether every valid group of the range has one sec on axis {@code a}, so that every
   * slice of {@code t} is its whole axis ({@link Slicing} slices only the axes with more secs): H
   * and W when the range runs one iteration on them, since two secs or more always give two slices
   * or more there (N may give one slice for more secs when aligned, C in its units of lanes).
   */
  private static boolean oneSec(String t, Axis a, boolean[] single) {
    return (a == Axis.H || a == Axis.W) && single[a.ordinal()];
  }

  /**
   * Section 6: per tensor and axis, an interval {@code [lo, hi)} inside its slice of iteration 0 in
   * every valid GROUP_NORMAL group of the range: row 0 of every group output (each axis's first
   * slice holds it), on H its first {@code ceil(D / mostSecsH)} rows when no valid slicing has more
   * H secs than {@code mostSecsH} (the first slice of {@code s} secs has {@code ceil(D / s)}), and
   * the backward of its readers' intervals ({@code lo < 0}: none known).
   */
  private void trackFirstSlices(int pos, int last, Map<String, long[]> firstSlice, int mostSecsH) {
    Op op = order.get(pos);
    long[] out = null;
    for (String t : op.outputs()) {
      long[] f = firstSlice.remove(t);
      if (f == null) {
        f = new long[] {-1, -1, -1, -1, -1, -1, -1, -1};
      }
      if (lastUser.getOrDefault(t, Integer.MAX_VALUE) > last) {
        Nchw d = Nchw.of(graph.tensor(t).shape());
        for (Axis a : Axis.values()) {
          long rows =
              a == Axis.H && mostSecsH < Integer.MAX_VALUE
                  ? OpSemantics.ceilDiv(d.dim(a), mostSecsH)
                  : 1;
          hull(f, a.ordinal(), 0, Math.max(1, rows));
        }
      }
      if (out == null) {
        out = f;
      }
    }
    for (int k = 0; k < op.inputs().size(); k++) {
      String t = op.inputs().get(k);
      if (t.isEmpty() || isWeight(t)) {
        continue;
      }
      long[] f = firstSlice.computeIfAbsent(t, x -> new long[] {-1, -1, -1, -1, -1, -1, -1, -1});
      for (Axis a : Axis.values()) {
        int x = a.ordinal();
        if (out[2 * x] < 0) {
          continue;
        }
        Range r = new Range(out[2 * x], out[2 * x + 1] - out[2 * x]);
        OpSemantics.backward(graph, op, k, a, r, chip, GroupType.NORMAL)
            .ifPresent(in -> hull(f, x, in.idx(), in.end()));
      }
    }
  }

  private static void hull(long[] f, int axis, long lo, long hi) {
    if (f[2 * axis] < 0) {
      f[2 * axis] = lo;
      f[2 * axis + 1] = hi;
    } else {
      f[2 * axis] = Math.min(f[2 * axis], lo);
      f[2 * axis + 1] = Math.max(f[2 * axis + 1], hi);
    }
  }

  /**
   * Section 6: {@code gdma(b) - 1} of each activation operand of the first op {@code first}, with
   * {@code b} the bytes of its slice of iteration 0 as far as known: on an axis of one sec its
   * coverage, on the others its {@link #trackFirstSlices} interval (one row when none is known).
   */
  private long firstSlicesFill(
      Op first, Map<String, Cover> open, Map<String, long[]> firstSlice, boolean[] one) {
    long cycles = 0;
    Set<String> seen = new HashSet<>();
    for (String t : first.inputs()) {
      if (t.isEmpty() || isWeight(t) || !seen.add(t) || !open.containsKey(t)) {
        continue;
      }
      Cover c = open.get(t);
      long[] f = firstSlice.get(t);
      long e = 1;
      for (Axis a : Axis.values()) {
        int x = a.ordinal();
        long known =
            one[x] || a == Axis.C
                ? atLeastOne(c.axes[x].cardinality(), c.dims[x])
                : f == null || f[2 * x] < 0 ? 1 : f[2 * x + 1] - f[2 * x];
        e = Math.multiplyExact(e, Math.max(1, Math.min(known, c.dims[x])));
      }
      cycles += Math.max(0, model.gdmaCycles(c.tensor.dtype().bytes(e), chip) - 1);
    }
    return cycles;
  }

  /**
   * Section 6: {@code gdma(b) - 1} of each group output of the op at {@code last}, with {@code b}
   * the bytes of its last slice: whole on C and on the axes of one sec, a row on the others.
   */
  private long lastSlicesDrain(int last, boolean[] one) {
    long cycles = 0;
    for (String t : order.get(last).outputs()) {
      if (lastUser.getOrDefault(t, Integer.MAX_VALUE) > last) {
        Tensor x = graph.tensor(t);
        Nchw d = Nchw.of(x.shape());
        long e = 1;
        for (Axis a : Axis.values()) {
          e *= one[a.ordinal()] || a == Axis.C ? d.dim(a) : 1;
        }
        cycles += Math.max(0, model.gdmaCycles(x.dtype().bytes(e), chip) - 1);
      }
    }
    return cycles;
  }

  /** Section 6: per axis, whether no valid GROUP_NORMAL group of the range loops over it. */
  private static boolean[] single(boolean[] unsplit, boolean[] oneRow) {
    boolean[] out = new boolean[4];
    for (int a = 0; a < 4; a++) {
      out[a] = unsplit[a] || oneRow[a];
    }
    return out;
  }

  /**
   * Section 6, off the BM1684X family, where slicing refuses an input slice after the first that
   * starts at row 0 or ends where the one before it ends ({@link Slicing}): keeps, per tensor and
   * for H and W, a row at or after which its second slice starts in every valid slicing with {@code
   * secs} secs (a group output's slice 2 starts at {@code ceil(D / secs)} under both conventions),
   * and marks the axis in {@code unsplit} when some op's input slice 2 must then start at row 0,
   * or, for {@code secs} 2, when the input an op needs for its whole output is one row (each slice
   * then needs that row: slice 2 ends where slice 1 does).
   */
  private void trackRestarts(
      int pos, int last, Map<String, long[]> second, int secs, boolean[] unsplit) {
    Op op = order.get(pos);
    long[] outStart = null;
    for (String t : op.outputs()) {
      long[] s = second.remove(t);
      if (s == null) {
        s = new long[] {Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE};
      }
      if (lastUser.getOrDefault(t, Integer.MAX_VALUE) > last) { // its first slice is the longest
        Nchw d = Nchw.of(graph.tensor(t).shape());
        for (Axis a : List.of(Axis.H, Axis.W)) {
          s[a.ordinal()] = Math.min(s[a.ordinal()], OpSemantics.ceilDiv(d.dim(a), secs));
        }
      }
      if (outStart == null) {
        outStart = s;
      }
    }
    Nchw outDims = Nchw.of(graph.tensor(op.outputs().get(0)).shape());
    for (int k = 0; k < op.inputs().size(); k++) {
      String t = op.inputs().get(k);
      if (t.isEmpty() || isWeight(t)) {
        continue;
      }
      long[] s =
          second.computeIfAbsent(
              t, x -> new long[] {Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE});
      Nchw inDims = Nchw.of(graph.tensor(t).shape());
      for (Axis a : Axis.values()) { // every slice needs the same input row: slice 2 repeats it
        long d = outDims.dim(a);
        if (secs == 2
            && d >= 2
            && OpSemantics.backward(graph, op, k, a, new Range(0, d), chip, GroupType.NORMAL)
                .filter(r -> r.idx() == 0 && r.len() == 1)
                .isPresent()) {
          unsplit[a.ordinal()] = true;
        }
      }
      for (Axis a : List.of(Axis.H, Axis.W)) {
        long y = outStart[a.ordinal()];
        if (y <= 0 || y >= outDims.dim(a)) {
          continue;
        }
        Optional<Range> in =
            OpSemantics.backward(graph, op, k, a, new Range(y, 1), chip, GroupType.NORMAL);
        if (in.isEmpty()) {
          continue;
        }
        if (in.get().idx() == 0 && inDims.dim(a) > 1) {
          unsplit[a.ordinal()] = true;
        }
        s[a.ordinal()] = Math.min(s[a.ordinal()], in.get().idx());
      }
    }
  }

  /**
   * Section 5's live bytes per row of the ranges of one sweep: {@code bytes[p - stop]} is a lower
   * bound on the per-lane bytes live in the row of the op at {@code p}, for every range from the op
   * visited last; {@code from} keeps, per activation, the lowest op whose row counts it.
   */
  private static final class Rows {
    final long[] bytes;
    final Map<String, Integer> from = new HashMap<>();
    final Map<String, Integer> to = new HashMap<>();
    final Map<String, Long> stored = new HashMap<>(); // the last op's outputs, sized

    Rows(int n) {
      bytes = new long[n];
    }
  }

  /**
   * Section 5: adds the op at {@code pos} to the rows of the sweep: its activations (operands and
   * results) count in every row from {@code pos} to their last touch in the range, each sized per
   * axis by the longest interval of its family; its weights and the next op's count in its row.
   * Updates {@code within} (the open tensors' families) first. Returns the most bytes of a row that
   * changed. {@code outCov} is the coverage of the op's first output (section 3).
   */
  private long addRow(
      int pos,
      int stop,
      int last,
      BitSet[] outCov,
      Map<String, Cover> open,
      Map<String, Family[]> within,
      Rows rows,
      boolean[] single) {
    Op op = order.get(pos);
    Map<String, Long> sizes = new java.util.LinkedHashMap<>();
    Family[] outF = null;
    for (String t : op.outputs()) {
      Family[] f = within.remove(t);
      if (f == null) {
        f = Family.axes();
      }
      boolean groupOut = lastUser.getOrDefault(t, Integer.MAX_VALUE) > last;
      Nchw dims = Nchw.of(graph.tensor(t).shape());
      for (Axis a : Axis.values()) {
        if (groupOut) { // its slices cover the axis: every row is in some iteration's slice
          for (int o = 0; o < dims.dim(a); o++) {
            f[a.ordinal()].add(o, o + 1);
          }
        }
      }
      if (outF == null) {
        outF = f;
        for (Axis a : Axis.values()) { // an op that cannot split an axis has one slice on it
          if (single[a.ordinal()] || !OpSemantics.allowSplit(graph, op, a, GroupType.NORMAL)) {
            f[a.ordinal()].collapse(
                oneSec(t, a, single) ? whole(graph.tensor(t))[a.ordinal()] : outCov[a.ordinal()]);
          }
        }
      }
      sizes.putIfAbsent(t, sliceBytes(t, f));
      if (pos == last) {
        rows.stored.put(t, sizes.get(t));
      }
    }
    long weights = 0;
    Set<String> seenWeights = new HashSet<>();
    for (int k = 0; k < op.inputs().size(); k++) {
      String t = op.inputs().get(k);
      if (t.isEmpty()) {
        continue;
      }
      if (isWeight(t)) {
        if (seenWeights.add(t)) {
          weights += weightLmem(t);
        }
        continue;
      }
      Family[] f = within.computeIfAbsent(t, x -> Family.axes());
      for (Axis a : Axis.values()) {
        backwardInto(pos, k, a, outF[a.ordinal()], f[a.ordinal()]);
        if (single[a.ordinal()] && open.containsKey(t)) { // one slice, holding every row needed
          f[a.ordinal()].collapse(
              oneSec(t, a, single)
                  ? whole(graph.tensor(t))[a.ordinal()]
                  : open.get(t).axes[a.ordinal()]);
        }
      }
      sizes.put(t, sliceBytes(t, f));
    }
    if (pos < last) { // the next op's weights are loaded by this row (section 5)
      for (String t : order.get(pos + 1).inputs()) {
        if (isWeight(t) && seenWeights.add(t)) {
          weights += weightLmem(t);
        }
      }
    }
    long[] b = rows.bytes;
    b[pos - stop] += weights;
    int changed = pos;
    for (Map.Entry<String, Long> e : sizes.entrySet()) {
      String t = e.getKey();
      Integer from = rows.from.get(t);
      int to = rows.to.computeIfAbsent(t, x -> pos);
      for (int p = pos; p < (from == null ? to + 1 : from); p++) {
        b[p - stop] += e.getValue();
        changed = Math.max(changed, p);
      }
      rows.from.put(t, pos);
    }
    String in0 = op.inputs().isEmpty() ? "" : op.inputs().get(0);
    String out0 = op.outputs().get(0);
    if (!in0.equals(out0) && sizes.containsKey(in0) && InPlaceOps.isInPlaceOp(graph, op, chip)) {
      b[pos - stop] -= Math.min(sizes.get(in0), sizes.get(out0)); // the pair may share one slot
    }
    long most = 0;
    for (int p = pos; p <= changed; p++) {
      most = Math.max(most, b[p - stop]);
    }
    return most;
  }

  /**
   * Section 5, for methods that fold transfers across iterations: whether the first or the last row
   * of the group {@code first..last} overflows the LMEM once the folded transfers are counted there
   * too: the first op's loaded operands live into the last op's row, and the last op's group
   * outputs, stored in the next iteration, into the first op's row.
   */
  private boolean foldedOverflow(
      int first, int stop, int last, Map<String, Family[]> within, Rows rows) {
    long cap = chip.lmemBytesPerLane();
    long atLast = rows.bytes[last - stop];
    Set<String> seen = new HashSet<>();
    Op lastOp = order.get(last);
    for (String t : order.get(first).inputs()) {
      if (t.isEmpty() || !seen.add(t)) {
        continue;
      }
      if (isWeight(t)) {
        atLast += lastOp.inputs().contains(t) ? 0 : weightLmem(t);
      } else if (rows.to.getOrDefault(t, -1) < last && within.containsKey(t)) {
        atLast += sliceBytes(t, within.get(t));
      }
    }
    if (atLast > cap) {
      return true;
    }
    long atFirst = rows.bytes[first - stop];
    for (String t : lastOp.outputs()) {
      if (lastUser.getOrDefault(t, Integer.MAX_VALUE) > last) {
        atFirst += rows.stored.getOrDefault(t, 0L);
      }
    }
    return atFirst > cap;
  }

  /**
   * Section 5: adds to {@code in} the input interval of operand {@code k} of the op at {@code pos}
   * along {@code axis} that each interval of {@code out} (its first output's family) needs: the
   * hull of the rows' inputs where the op splits the axis in a GROUP_NORMAL group, the backward of
   * the interval where it does not.
   */
  private void backwardInto(int pos, int k, Axis axis, Family out, Family in) {
    Op op = order.get(pos);
    out.normalize();
    if (!OpSemantics.allowSplit(graph, op, axis, GroupType.NORMAL)) {
      for (int m = 0; m < out.size; m++) {
        OpSemantics.backward(
                graph,
                op,
                k,
                axis,
                new Range(out.lo[m], out.hi[m] - out.lo[m]),
                chip,
                GroupType.NORMAL)
            .ifPresent(r -> in.add((int) r.idx(), (int) r.end()));
      }
      return;
    }
    int outSize = (int) Nchw.of(graph.tensor(op.outputs().get(0)).shape()).dim(axis);
    Range[] table = rows(((long) pos * 1024 + k) * 4 + axis.ordinal(), pos, k, axis, outSize);
    for (int m = 0; m < out.size; m++) {
      int lo = out.lo[m];
      int hi = Math.min(out.hi[m], outSize);
      while (lo < hi && table[lo] == null) {
        lo++;
      }
      while (hi > lo && table[hi - 1] == null) {
        hi--;
      }
      if (lo < hi) { // first and last indices of a row's input never decrease (section 3)
        in.add((int) table[lo].idx(), (int) Math.max(table[lo].end(), table[hi - 1].end()));
      }
    }
  }

  /**
   * Section 5: intervals of one axis of a tensor, each inside the slice of some iteration, kept
   * maximal under inclusion (an interval inside another adds nothing to the bound).
   */
  private static final class Family {
    int[] lo = new int[4];
    int[] hi = new int[4];
    int size;
    private boolean sorted = true;

    static Family[] axes() {
      return new Family[] {new Family(), new Family(), new Family(), new Family()};
    }

    void add(int l, int h) {
      if (h <= l) {
        return;
      }
      if (size == lo.length) {
        normalize();
        if (size == lo.length) {
          lo = java.util.Arrays.copyOf(lo, 2 * size);
          hi = java.util.Arrays.copyOf(hi, 2 * size);
        }
      }
      lo[size] = l;
      hi[size] = h;
      size++;
      sorted = false;
    }

    /** Sorts by first index and drops the intervals inside others. */
    void normalize() {
      if (sorted) {
        return;
      }
      Integer[] idx = new Integer[size];
      for (int m = 0; m < size; m++) {
        idx[m] = m;
      }
      java.util.Arrays.sort(
          idx, (x, y) -> lo[x] != lo[y] ? Integer.compare(lo[x], lo[y]) : hi[y] - hi[x]);
      int[] nl = new int[Math.max(4, size)];
      int[] nh = new int[Math.max(4, size)];
      int n = 0;
      int reach = Integer.MIN_VALUE;
      for (int m : idx) {
        if (hi[m] > reach) {
          nl[n] = lo[m];
          nh[n] = hi[m];
          n++;
          reach = hi[m];
        }
      }
      lo = nl;
      hi = nh;
      size = n;
      sorted = true;
    }

    /** One slice holds every interval and the coverage {@code cov}: their hull replaces them. */
    void collapse(BitSet cov) {
      int l = cov.isEmpty() ? Integer.MAX_VALUE : cov.nextSetBit(0);
      int h = cov.isEmpty() ? Integer.MIN_VALUE : cov.length();
      for (int m = 0; m < size; m++) {
        l = Math.min(l, lo[m]);
        h = Math.max(h, hi[m]);
      }
      size = 0;
      sorted = true;
      if (l < h) {
        add(l, h);
      }
    }

    long longest() {
      int best = 0;
      for (int m = 0; m < size; m++) {
        best = Math.max(best, hi[m] - lo[m]);
      }
      return best;
    }
  }

  /** Section 5: per-lane LMEM bytes of a slice of activation {@code t} as long as its family's. */
  private long sliceBytes(String t, Family[] f) {
    Tensor x = graph.tensor(t);
    Nchw s = Nchw.of(x.shape());
    long[] e = new long[4];
    for (Axis a : Axis.values()) {
      e[a.ordinal()] = atLeastOne(f[a.ordinal()].longest(), s.dim(a));
    }
    return OpSemantics.lmemBytes(chip, e[0], e[1], e[2], e[3], x.dtype(), true);
  }

  /** Section 5: the least per-lane LMEM bytes of weight {@code t} over the ops that read it. */
  private long weightLmem(String t) {
    Long got = weightLmem.get(t);
    if (got == null) {
      long least = Long.MAX_VALUE;
      for (Op reader : order) {
        if (reader.inputs().contains(t)) {
          least = Math.min(least, OpSemantics.weightLmemBytes(graph, reader, t, chip));
        }
      }
      got = least == Long.MAX_VALUE ? 0 : least;
      weightLmem.put(t, got);
    }
    return got;
  }

  /** Every axis with one sec (section 6's one iteration): coverage loaded, outputs stored whole. */
  private static final boolean[] EVERY_AXIS = {true, true, true, true};

  /** The H secs at which section 6 looks for slicing's refusals off the BM1684X family. */
  private static final int[] SPLITS = {3, 4, 5, 6, 8, 12, 16};

  /** How many weights and segments section 4's matching looks at, at most. */
  private static final int EXCESS_TERMS = 32;

  /** Whether {@code op} reads a weight. */
  private boolean hasWeight(Op op) {
    return op.inputs().stream().anyMatch(this::isWeight);
  }

  /** Whether the operand {@code t} is a weight (a stored tensor; {@code ""} is no operand). */
  private boolean isWeight(String t) {
    return !t.isEmpty() && !GroupBoundary.isActivation(graph, t);
  }

  /**
   * Section 4's excess of a range whose first op is {@code first}: the GDMA cycles (less 1) of the
   * first op's weights in full, plus the best prefix of the other weights, largest first, each less
   * the TIU of the segment it is matched with, largest first.
   */
  private long weightExcess(
      Op first,
      TopList weightLoads,
      TopList closed,
      long firstSegment,
      int i,
      int last,
      long window) {
    Set<String> fill = new HashSet<>();
    long fillCycles = 0;
    for (String t : first.inputs()) {
      if (isWeight(t) && fill.add(t)) {
        fillCycles += weightCycles(t);
      }
    }
    long[] others = weightLoads.valuesExcept(fill);
    long[] segments = closed.valuesWith(firstSegment);
    long matched = bestPrefix(others, segments, closed.boundOfDropped());
    return fillCycles + Math.max(Math.max(matched, headExcess(fill, i, last)), window);
  }

  /** How far back section 5's windows look for a row with room, at most. */
  private static final int WINDOW_OPS = 32;

  /**
   * The longest range whose weight windows section 5 looks at, and how many of its weights (the
   * largest loads): a bound on the work per range; leaving weights out only loosens the bound.
   */
  private static final int WINDOW_RANGE = 256;

  private static final int WINDOW_WEIGHTS = 32;

  /**
   * Section 5, for methods that fold (one op per row): the excess of the weights whose loads the
   * LMEM confines to a few rows. A weight {@code x} first read by op {@code q > first} is loaded in
   * iteration 0 in step 1, in a row {@code r < row(q)}, and lives from {@code r} to {@code q}; it
   * cannot be live in a row whose other live bytes leave no room for it, so its window is the rows
   * from the first such row after {@code first}... up to {@code q - 1}. Windows that overlap form
   * one component; each component adds {@code Σ g - Σ tiu} over its rows, or its best single
   * weight's, when positive. {@code rows} holds the live bytes of the range's rows.
   */
  private long windowExcess(int first, int stop, Map<String, Integer> heavy, Rows rows) {
    long cap = chip.lmemBytesPerLane();
    List<long[]> windows = new java.util.ArrayList<>();
    TopList largest = new TopList(WINDOW_WEIGHTS);
    for (Map.Entry<String, Integer> e : heavy.entrySet()) {
      if (e.getValue() > first) { // the first op's weights count in full
        largest.add(weightCycles(e.getKey()), e.getKey());
      }
    }
    for (String name : largest.names()) {
      Map.Entry<String, Integer> e = Map.entry(name, heavy.get(name));
      int q = e.getValue();
      long g = weightCycles(e.getKey());
      if (g <= tiu[q - 1]) {
        continue; // leaving a weight out is always allowed
      }
      long size = weightLmem(e.getKey());
      int from = q - 1;
      while (from > first && rows.bytes[from - 1 - stop] + size <= cap) {
        from--;
        if (q - 1 - from >= WINDOW_OPS) {
          from = first; // looked far enough: take every row (a longer window only loosens)
        }
      }
      windows.add(new long[] {from, q - 1, g});
    }
    windows.sort((a, b) -> Long.compare(a[0], b[0]));
    long total = 0;
    int k = 0;
    while (k < windows.size()) {
      int from = (int) windows.get(k)[0];
      int to = (int) windows.get(k)[1];
      List<Long> loads = new java.util.ArrayList<>();
      long single = 0;
      int m = k;
      while (m < windows.size() && windows.get(m)[0] <= to) {
        long[] w = windows.get(m);
        to = Math.max(to, (int) w[1]);
        loads.add(w[2]);
        single = Math.max(single, w[2] - maxTiu((int) w[0], (int) w[1]));
        m++;
      }
      long[] g = loads.stream().mapToLong(Long::longValue).sorted().toArray();
      reverse(g);
      long[] t = java.util.Arrays.copyOfRange(tiu, from, to + 1);
      java.util.Arrays.sort(t);
      reverse(t);
      total += Math.max(single, bestPrefix(g, t, 0));
      k = m;
    }
    return total;
  }

  /** The largest whole-op TIU cycles of the ops {@code from..to}. */
  private long maxTiu(int from, int to) {
    long most = 0;
    for (int o = from; o <= to; o++) {
      most = Math.max(most, tiu[o]);
    }
    return most;
  }

  private static void reverse(long[] a) {
    for (int x = 0, y = a.length - 1; x < y; x++, y--) {
      long tmp = a[x];
      a[x] = a[y];
      a[y] = tmp;
    }
  }

  /** How many ops after the first section 4's head term looks at. */
  private static final int HEAD_OPS = 16;

  /**
   * Section 4's head term for the range {@code i..last}: the most, over the ops {@code q} of its
   * first {@link #HEAD_OPS} after {@code i}, of the weights first read by ops {@code i+1..q} (not
   * by op {@code i}) less the whole-op TIU of ops {@code i..q-1}, the only TIU work they can be
   * loaded beside.
   */
  private long headExcess(Set<String> fill, int i, int last) {
    Set<String> seen = new HashSet<>(fill);
    long weights = 0;
    long before = 0;
    long best = 0;
    for (int q = i + 1; q <= Math.min(last, i + HEAD_OPS); q++) {
      before += tiu[q - 1];
      for (String t : order.get(q).inputs()) {
        if (isWeight(t) && seen.add(t)) {
          weights += weightCycles(t);
        }
      }
      best = Math.max(best, weights - before);
    }
    return best;
  }

  /** {@code gdma(bytes) - 1} of the weight {@code t}, at least 0. */
  private long weightCycles(String t) {
    return Math.max(0, model.gdmaCycles(graph.tensor(t).bytes(), chip) - 1);
  }

  /**
   * {@code max_k Σ_{j < k} (weights[j] - segments[j])} over {@code k >= 0}, both sorted from the
   * largest (a segment past the end counts {@code missing}: 0 when there is none, else at least
   * every segment left out): the least excess of the {@code k} largest weights over the {@code k}
   * largest segments, maximised over {@code k} (section 4).
   */
  public static long bestPrefix(long[] weights, long[] segments, long missing) {
    long best = 0;
    long sum = 0;
    for (int j = 0; j < weights.length; j++) {
      sum += weights[j] - (j < segments.length ? segments[j] : missing);
      best = Math.max(best, sum);
    }
    return best;
  }

  /** The largest values seen (with an optional name each), largest first, at most {@code cap}. */
  private static final class TopList {
    private final int cap;
    private final long[] values;
    private final String[] names;
    private int size;
    private boolean dropped;

    TopList(int cap) {
      this.cap = cap;
      this.values = new long[cap];
      this.names = new String[cap];
    }

    void add(long value, String name) {
      if (value <= 0) {
        return;
      }
      if (size == cap) {
        dropped = true;
        if (value <= values[size - 1]) {
          return;
        }
      }
      int at = size < cap ? size++ : size - 1;
      while (at > 0 && values[at - 1] < value) {
        values[at] = values[at - 1];
        names[at] = names[at - 1];
        at--;
      }
      values[at] = value;
      names[at] = name;
    }

    long[] valuesExcept(Set<String> skip) {
      long[] out = new long[size];
      int n = 0;
      for (int k = 0; k < size; k++) {
        if (names[k] == null || !skip.contains(names[k])) {
          out[n++] = values[k];
        }
      }
      return java.util.Arrays.copyOf(out, n);
    }

    /** The values kept and {@code extra}, largest first. */
    long[] valuesWith(long extra) {
      long[] out = new long[size + 1];
      int at = 0;
      while (at < size && values[at] >= extra) {
        out[at] = values[at];
        at++;
      }
      out[at] = extra;
      System.arraycopy(values, at, out, at + 1, size - at);
      return out;
    }

    /** The names kept, largest value first. */
    List<String> names() {
      return java.util.Arrays.asList(names).subList(0, size);
    }

    /** At least every value left out: the smallest kept when some were, else 0. */
    long boundOfDropped() {
      return dropped ? values[size - 1] : 0;
    }
  }

  /** {@code Π_axis |cov_axis| / dim_axis}: the share of the output every valid group computes. */
  private static double fraction(Tensor t, BitSet[] cov) {
    Nchw s = Nchw.of(t.shape());
    double f = 1;
    for (Axis a : Axis.values()) {
      long d = s.dim(a);
      long c = atLeastOne(cov[a.ordinal()].get(0, (int) d).cardinality(), d);
      if (c < d) {
        f *= (double) c / d;
      }
    }
    return f;
  }

  /**
   * A slice range is never empty ({@link Range}), and every tensor of a group has a slice in every
   * iteration, so every axis of a union holds at least one index (of a non-empty axis).
   */
  private static long atLeastOne(long covered, long dim) {
    return Math.min(dim, Math.max(1, covered));
  }

  private static BitSet[] whole(Tensor t) {
    Nchw s = Nchw.of(t.shape());
    BitSet[] out = new BitSet[4];
    for (Axis a : Axis.values()) {
      out[a.ordinal()] = new BitSet();
      out[a.ordinal()].set(0, (int) s.dim(a));
    }
    return out;
  }

  /**
   * The indices of operand {@code k} of the op at {@code pos} along {@code axis} that every valid
   * group loads, given its output's coverage {@code out} (section 3).
   */
  private BitSet contribution(int pos, int k, Axis axis, BitSet out) {
    BitSet in = new BitSet();
    if (out.isEmpty()) {
      return in;
    }
    Op op = order.get(pos);
    Nchw res = Nchw.of(graph.tensor(op.outputs().get(0)).shape());
    int outSize = (int) res.dim(axis);
    GroupType type = semantics(op, axis);
    if (!OpSemantics.allowSplit(graph, op, axis, type)) {
      int from = out.nextSetBit(0);
      int to = Math.min(out.length(), outSize);
      if (from < to) {
        OpSemantics.backward(graph, op, k, axis, new Range(from, to - from), chip, type)
            .ifPresent(r -> in.set((int) r.idx(), (int) r.end()));
      }
      return in;
    }
    boolean full = out.nextClearBit(0) >= outSize;
    long key = ((long) pos * 1024 + k) * 4 + axis.ordinal();
    if (full) {
      BitSet cached = fullContribution.get(key);
      if (cached == null) {
        cached = new BitSet();
        for (Range r : rows(key, pos, k, axis, outSize)) {
          if (r != null) {
            cached.set((int) r.idx(), (int) r.end());
          }
        }
        fullContribution.put(key, cached);
      }
      return cached;
    }
    Range[] table = rows(key, pos, k, axis, outSize);
    for (int o = out.nextSetBit(0); o >= 0 && o < outSize; o = out.nextSetBit(o + 1)) {
      Range r = table[o];
      if (r != null) {
        in.set((int) r.idx(), (int) r.end());
      }
    }
    return in;
  }

  /**
   * The split rules a contribution of {@code op} along {@code axis} follows (section 3): GROUP_MM's
   * for C when the op may be in a GROUP_MM group ({@link GroupType#mayJoinMm}; MM is the only type
   * in the normal layout that splits C), GROUP_NORMAL's (which MM shares) otherwise.
   */
  private GroupType semantics(Op op, Axis axis) {
    return axis == Axis.C && GroupType.mayJoinMm(graph, op, chip) ? GroupType.MM : GroupType.NORMAL;
  }

  /** Per output row {@code o}, the input range it needs for certain, or null (section 3). */
  private Range[] rows(long key, int pos, int k, Axis axis, int outSize) {
    Range[] table = rows.get(key);
    if (table != null) {
      return table;
    }
    Op op = order.get(pos);
    table = new Range[outSize];
    for (int o = 0; o < outSize; o++) {
      Optional<Range> r =
          OpSemantics.backward(graph, op, k, axis, new Range(o, 1), chip, semantics(op, axis));
      if (r.isEmpty() && (op.kind() == OpKind.UPSAMPLE || op.kind() == OpKind.RESIZE)) {
        r = alignedUpsampleRow(op, k, axis, o, outSize);
      }
      table[o] = r.orElse(null);
    }
    rows.put(key, table);
    return table;
  }

  /**
   * Upsample/Resize off the BM1684X family accept only ranges aligned to the scale {@code s}; the
   * row {@code o} then needs input row {@code floor(o / s)}: the backward of its aligned block.
   */
  private Optional<Range> alignedUpsampleRow(Op op, int k, Axis axis, int o, int outSize) {
    if (axis != Axis.H && axis != Axis.W) {
      return Optional.empty();
    }
    long inSize = Nchw.of(graph.tensor(op.inputs().get(k)).shape()).dim(axis);
    if (inSize <= 0 || outSize % inSize != 0) {
      return Optional.empty();
    }
    long s = outSize / inSize;
    return OpSemantics.backward(graph, op, k, axis, new Range(o / s * s, s), chip)
        .filter(r -> r.len() == 1);
  }
}
