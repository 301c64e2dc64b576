package io.github.memplan.core.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.Timestep;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The timestep assignment of the pinned TPU-MLIR version, upstream {@code sophgo/tpu-mlir} at
 * commit 36e3c625a of 2026-04-29 ({@code TimeStepMethod.cpp}, {@code BasicTimeStep.cpp}, {@code
 * SwPipeline.cpp}; {@code reference/tpu-mlir.md} §2.8 (a) to (e)), id {@code today} (kept, since
 * groupings and results name it).
 *
 * <p><b>(a) Nearest assignment</b>, {@code k} ops, {@code k + 2} rows: row 0 loads op 0's operands;
 * row {@code i + 1} runs op {@code i} on the TIU, loads the operands of op {@code i + 1} not yet
 * loaded (group inputs and weights, one buffer per value) and stores the group outputs of op {@code
 * i - 1}; row {@code k + 1} stores op {@code k - 1}'s group outputs.
 *
 * <p><b>(b) 3-stage software pipeline</b>: transfers of the first row get stage 0, of the last row
 * stage 2, all others stage 1. The last row's stores move into row 1 (op 0's row) unless op 0 reads
 * or writes them; then the first row's loads move into the last compute row unless its op reads
 * them; empty rows are deleted. A moved load (slice {@code t + 1}) or store (slice {@code t - 1})
 * gets a wrapped lifetime ({@code start > end}).
 *
 * <p><b>(c) Memory-aware rebalancing</b> ({@link MemoryAwareRebalance}) then moves transfers of
 * rows whose GDMA outlasts their TIU op into rows with slack, for groups of more than one op, in
 * this order as the source runs it ({@code memory_aware_timestep_assignment} calls the nearest
 * assignment, which ends with the software pipeline); moved transfers keep their stage. Cycles come
 * from {@link io.github.memplan.core.group.RooflineCostModel} in place of the closed backend's.
 *
 * <p><b>(d) Hold coefficients</b>: weights are not split and, when the group loops more than once,
 * held (loaded once, resident). As {@code LmemAllocator::assignLmemAddr} does ({@code allow_hold},
 * §2.10), holds are cancelled when the held bytes together reach the lane's LMEM.
 *
 * <p><b>(e) Lifetimes</b>: an output starts at its op's row; a load at its load row; a buffer ends
 * at its last TIU use or at its store row, whichever comes later going forward from its start (so a
 * moved store or load wraps); scratch lives in its op's row and is dropped when its size is 0. Read
 * off the finished table by {@link BufferLifetimes}, which {@link TimestepMoves} shares.
 *
 * <p><b>(f) In-place pairs</b> ({@link InPlaceOps}, {@code LmemAllocator.cpp}'s {@code isInplaceOp}
 * and {@code insert_inplace_local_mem}, §2.10): the output of an eltwise op, a Reshape or a Scale
 * may take the address of its operand 0 when that operand has one user and its life ends where the
 * output's begins; not on CV18xx.
 *
 * <p><b>Pieces</b> ({@link Pieces}): (b), (c), (d) and (f) can each be switched off to measure what
 * they change; the variant's id names them ({@code today-no-pipeline}, ..., {@link #id()}), so a
 * {@link Grouping} built with it is re-derived with it. Without (b) the nearest assignment's rows
 * stay as they are (loads in the row before their op, stores in the row after it, every transfer in
 * stage 1, nothing wraps); without (c) nothing is rebalanced; without (d) nothing is held; without
 * (f) the table declares no in-place pair.
 *
 * <p>Departures: (c)'s own departures are listed in {@link MemoryAwareRebalance}; weights that
 * TPU-MLIR splits ({@code allow_split}: weight operands of Add, Mul, Concat, …) are loaded whole
 * and held like every other weight. Sizes are those of {@link V0Timesteps} (largest slice per axis,
 * EU-aligned; weights whole).
 */
public final class Timesteps2026 implements TimestepMethod {
  /** The timestep pieces in use ({@link Pieces#TIMESTEP_PIECES}). */
  private final Set<Pieces.Piece> on;

  /** Today's method with every piece ({@code today}); the registered one. */
  public Timesteps2026() {
    this(Pieces.ALL);
  }

  /**
   * Today's method with the timestep pieces of {@code pieces} ({@link Pieces#TIMESTEP_PIECES}); the
   * others do not matter here.
   */
  public Timesteps2026(Pieces pieces) {
    EnumSet<Pieces.Piece> set = EnumSet.noneOf(Pieces.Piece.class);
    for (Pieces.Piece p : Pieces.TIMESTEP_PIECES) {
      if (pieces.has(p)) {
        set.add(p);
      }
    }
    this.on = Collections.unmodifiableSet(set);
  }

  /**
   * {@code today} with every timestep piece; else {@code today-no-PIECE...} naming each piece
   * switched off, in the order of {@link Pieces.Piece} (e.g. {@code
   * today-no-rebalance-no-in-place}).
   */
  @Override
  public String id() {
    StringBuilder sb = new StringBuilder("today");
    for (Pieces.Piece p : Pieces.TIMESTEP_PIECES) {
      if (!on.contains(p)) {
        sb.append("-no-").append(p.id());
      }
    }
    return sb.toString();
  }

  /** With the software pipeline (piece (b)) on. */
  @Override
  public boolean foldsAcrossIterations() {
    return on.contains(Pieces.Piece.PIPELINE);
  }

  /** The variant of today's method with the id {@code id}, if any ({@link #id()}). */
  @Override
  public Optional<TimestepMethod> variant(String id) {
    List<Pieces.Piece> pieces = List.copyOf(Pieces.TIMESTEP_PIECES);
    for (int mask = 0; mask < 1 << pieces.size(); mask++) {
      EnumSet<Pieces.Piece> set = EnumSet.noneOf(Pieces.Piece.class);
      for (int i = 0; i < pieces.size(); i++) {
        if ((mask >> i & 1) == 1) {
          set.add(pieces.get(i));
        }
      }
      Timesteps2026 t = new Timesteps2026(new Pieces(set));
      if (t.id().equals(id)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  /** One transfer before row compaction. */
  private record Move(int buffer, boolean load) {}

  @Override
  public GroupTimesteps build(
      String name,
      Graph graph,
      List<Op> ops,
      Chip chip,
      ShapeSecs secs,
      Map<String, SliceInfo> slices) {
    GroupBoundary io = GroupBoundary.of(graph, ops);
    Set<String> outs = new HashSet<>(io.outputs());
    int k = ops.size();
    List<String> tensors = new ArrayList<>();
    List<LmemBuffer> proto = new ArrayList<>();
    Map<String, Integer> index = new LinkedHashMap<>();
    List<List<Move>> gdma = new ArrayList<>();
    for (int r = 0; r < k + 2; r++) {
      gdma.add(new ArrayList<>());
    }
    // buffers and (a) nearest assignment
    List<List<Integer>> operands = new ArrayList<>();
    List<List<Integer>> results = new ArrayList<>();
    List<List<Integer>> scratch = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      Op op = ops.get(i);
      List<Integer> in = new ArrayList<>();
      for (String t : op.inputs()) {
        if (t.isEmpty()) {
          continue;
        }
        Integer b = index.get(t);
        if (b == null) {
          boolean act = GroupBoundary.isActivation(graph, t);
          long bytes =
              act
                  ? V0Timesteps.bytes(graph, chip, t, slices)
                  : OpSemantics.weightLmemBytes(graph, op, t, chip);
          b = add(proto, tensors, index, t, t, act ? LmemBuffer.Kind.ACTIVATION : weight(), bytes);
          gdma.get(i).add(new Move(b, true));
        }
        if (!in.contains(b)) {
          in.add(b);
        }
      }
      operands.add(in);
      List<Integer> sc = new ArrayList<>();
      long sb = V0Timesteps.scratchBytes(graph, chip, op, slices);
      if (sb > 0) {
        String id = op.name() + "/scratch";
        sc.add(add(proto, tensors, index, id, "", LmemBuffer.Kind.SCRATCH, sb));
      }
      scratch.add(sc);
      List<Integer> res = new ArrayList<>();
      for (String t : op.outputs()) {
        int b =
            add(
                proto,
                tensors,
                index,
                t,
                t,
                LmemBuffer.Kind.ACTIVATION,
                V0Timesteps.bytes(graph, chip, t, slices));
        res.add(b);
        if (outs.contains(t)) {
          gdma.get(i + 2).add(new Move(b, false));
        }
      }
      results.add(res);
    }
    // (b) stages, then the two moves (without the pipeline: every transfer in stage 1, in place)
    int[] stage = new int[proto.size()];
    java.util.Arrays.fill(stage, 1);
    boolean pipeline = on.contains(Pieces.Piece.PIPELINE);
    if (pipeline) {
      gdma.get(0).forEach(m -> stage[m.buffer()] = 0);
      gdma.get(k + 1).forEach(m -> stage[m.buffer()] = 2);
    }
    List<List<Integer>> tiuOf = new ArrayList<>(); // per row: buffers the TIU op touches
    for (int r = 0; r < k + 2; r++) {
      List<Integer> touched = new ArrayList<>();
      if (r >= 1 && r <= k) {
        touched.addAll(operands.get(r - 1));
        touched.addAll(results.get(r - 1));
      }
      tiuOf.add(touched);
    }
    if (pipeline) {
      moveAll(gdma, k + 1, 1, m -> !tiuOf.get(1).contains(m.buffer()));
      moveAll(gdma, 0, k, m -> !operands.get(k - 1).contains(m.buffer()));
    }
    // compaction: keep rows with TIU work or transfers
    List<Timestep> table = new ArrayList<>();
    for (int r = 0; r < k + 2; r++) {
      boolean compute = r >= 1 && r <= k;
      if (!compute && gdma.get(r).isEmpty()) {
        continue;
      }
      List<Timestep.TiuOp> tiu =
          compute
              ? List.of(
                  new Timestep.TiuOp(
                      ops.get(r - 1).name(),
                      operands.get(r - 1),
                      results.get(r - 1),
                      scratch.get(r - 1)))
              : List.of();
      table.add(new Timestep(tiu, gdma.get(r).stream().map(Move::buffer).toList()));
    }
    List<Integer> stages = new ArrayList<>();
    for (int s : stage) {
      stages.add(s);
    }
    // (c) memory-aware rebalancing of the pipelined table (groups of more than one op)
    if (k > 1 && on.contains(Pieces.Piece.REBALANCE)) {
      GroupTimesteps pipelined =
          new GroupTimesteps(
              LmemInstance.of(name, chip, BufferLifetimes.of(proto, table), table, List.of()),
              tensors,
              stages);
      RooflineCostModel model = new RooflineCostModel();
      List<List<Integer>> moved =
          MemoryAwareRebalance.of(
              pipelined, model.terms(graph, ops, chip, secs, slices, pipelined), model, chip);
      List<Timestep> rebalanced = new ArrayList<>();
      for (int r = 0; r < table.size(); r++) {
        rebalanced.add(new Timestep(table.get(r).tiu(), moved.get(r)));
      }
      table = rebalanced;
    }
    // (d) holds, then (e) lifetimes
    boolean sliced = secs.loops() > 1;
    long heldBytes = 0;
    for (LmemBuffer b : proto) {
      heldBytes += b.kind() == LmemBuffer.Kind.WEIGHT ? b.bytes() : 0;
    }
    boolean allowHold =
        on.contains(Pieces.Piece.HOLD) && sliced && heldBytes < chip.lmemBytesPerLane();
    List<LmemBuffer> held = new ArrayList<>();
    for (LmemBuffer p : proto) {
      boolean h = allowHold && p.kind() == LmemBuffer.Kind.WEIGHT;
      held.add(new LmemBuffer(p.id(), p.kind(), 0, 0, p.bytes(), h));
    }
    List<LmemBuffer> buffers = BufferLifetimes.of(held, table);
    // (f) in-place pairs (LmemAllocator's insert_inplace_local_mem)
    List<io.github.memplan.core.lmem.InPlace> pairs =
        on.contains(Pieces.Piece.IN_PLACE)
            ? InPlaceOps.pairs(graph, ops, chip, index, buffers, table)
            : List.of();
    return new GroupTimesteps(LmemInstance.of(name, chip, buffers, table, pairs), tensors, stages);
  }

  private static LmemBuffer.Kind weight() {
    return LmemBuffer.Kind.WEIGHT;
  }

  private static void moveAll(
      List<List<Move>> gdma, int from, int to, java.util.function.Predicate<Move> movable) {
    List<Move> stay = new ArrayList<>();
    for (Move m : gdma.get(from)) {
      if (movable.test(m)) {
        gdma.get(to).add(m);
      } else {
        stay.add(m);
      }
    }
    gdma.set(from, stay);
  }

  private static int add(
      List<LmemBuffer> buffers,
      List<String> tensors,
      Map<String, Integer> index,
      String id,
      String tensor,
      LmemBuffer.Kind kind,
      long bytes) {
    buffers.add(new LmemBuffer(id, kind, 0, 0, bytes, false));
    tensors.add(tensor);
    index.put(id, buffers.size() - 1);
    return buffers.size() - 1;
  }
}
