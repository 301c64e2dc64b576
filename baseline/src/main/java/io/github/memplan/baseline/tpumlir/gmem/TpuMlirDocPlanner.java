package io.github.memplan.baseline.tpumlir.gmem;

import io.github.memplan.core.dsa.Alignment;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaOutcomes;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.Program;
import io.github.memplan.core.dsa.Step;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * TPU-MLIR's documented GMEM allocation of global neuron tensors: the {@code rec_tbl} algorithm of
 * the developer manual ({@code docs/developer_manual/source_en/11_memassign.rst}; seed {@code
 * tpu-mlir-gmem-allocation.rst}), as implemented in {@code AddressAssignPass} of {@code
 * lib/Dialect/Tpu/Transforms/AddressAssign.cpp} at commit 58758a7ae (2022-08-27), replaced in
 * October 2022. Pseudo-code in {@code reference/tpu-mlir.md} §1.10; the method names below are the
 * source's.
 *
 * <p>It walks the ops in order. For each op: (1) {@code calc_tensor_life_cycle}: every operand's
 * {@code rec_tbl} entry with {@code ref_cnt >= 1} loses one reference; (2) {@code fuse_address}: a
 * Reshape takes its input's address and is recorded ({@code record_info}: appended to {@code
 * rec_tbl} with its number of users, held, its offset marked in use), nothing else; (3) otherwise
 * each result ({@code check_can_reuse_gmem}) takes the <em>first</em> entry of {@code rec_tbl}, in
 * insertion order, that meets the five conditions — its value is not in {@code hold_edges}, its
 * offset is not in {@code in_using_addr}, its {@code ref_cnt} is 0, its size is at least the
 * result's, and its offset is no operand's address — or else fresh space at the top ({@code addr =
 * align_up(addr + bytes, 4096)}); the result is recorded; then (4) {@code adjust_eol_edge}: every
 * held operand whose {@code ref_cnt} is 0 leaves {@code hold_edges} and its offset leaves {@code
 * in_using_addr}. Blocks are never split or merged; a reused block is recorded again with the new,
 * smaller size while its old entry stays in the table, so a later, larger tensor can still take the
 * whole old block.
 *
 * <p>Characteristic behaviour: first fit in insertion order on exact old blocks (not best fit); a
 * result never takes the address of one of its op's inputs, so an input freed by op {@code k} is
 * reused from op {@code k+1} on; a Reshape's block is freed by the last reader of the Reshape's
 * output, through the output's entry, while its input stays in {@code hold_edges} for good.
 *
 * <p>Values that share a buffer (the {@link Program}'s aliases) are recorded at the buffer's start
 * with the buffer's size: TPU-MLIR's 2022 code fused only Reshape, whose output has its input's
 * address and size. A buffer holding several values at different offsets (a merged Concat's
 * operands, a fused Slice) is allocated whole when its first value is defined, and every value in
 * it is recorded at the buffer's start, so the block stays in use while any of them does.
 *
 * <p>Departures, each needed to keep plans valid for every instance: (a) a buffer's offset stays in
 * {@code in_using_addr} while another held value in the same buffer (the other end of a Reshape,
 * another member of a merged Concat) still has readers or is not yet defined — the source erases it
 * as soon as either end of a Reshape is released, so a later result could overwrite a live tensor;
 * (b) a reused offset must also meet the buffer's own alignment (always true on BM168x, where every
 * size is a multiple of 4 KiB); (c) zero-byte buffers take offset 0 and no table entry, nor do
 * their aliases; (d) an op without results still releases its dead inputs (in TPU-MLIR only the
 * return op has none; in the op view of an interval instance a step may only end lifetimes, and
 * without this its buffers would never be freed). Offsets are relative to the activation region, so
 * the source's {@code reused_addr == 0} sentinel (safe there because absolute addresses are never
 * 0) becomes an explicit "none". The source fuses Reshape only on BM1684X; here the instance's
 * program decides. Instances without a program (MiniMalloc CSVs) run on {@link
 * Program#fromIntervals}. Fixed offsets are not supported.
 */
public final class TpuMlirDocPlanner implements Planner<DsaInstance, DsaSolution> {

  private static final class Entry {
    final String value;
    final long offset;
    final long size;
    int refCnt;

    Entry(String value, long offset, long size, int refCnt) {
      this.value = value;
      this.offset = offset;
      this.size = size;
      this.refCnt = refCnt;
    }
  }

  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    for (Buffer b : instance.buffers()) {
      if (b.fixedOffset().isPresent()) {
        throw new IllegalArgumentException(
            "tpumlir-doc does not support fixed offsets (buffer '" + b.id() + "')");
      }
    }
    Program program = instance.programOrIntervals();
    Map<String, Integer> index = instance.indexById();
    Map<String, Integer> uses = program.useCounts();
    // how many values live in each buffer (the buffer itself, its aliases): a buffer is held
    // until all of them are defined
    Map<String, Integer> members = new HashMap<>();
    for (Step s : program.steps()) {
      for (String out : s.outputs()) {
        members.merge(program.bufferOf(out), 1, Integer::sum);
      }
    }

    List<Entry> recTbl = new ArrayList<>();
    Map<String, Entry> entryOf = new HashMap<>();
    Set<String> holdEdges = new HashSet<>();
    Set<Long> inUsingAddr = new HashSet<>();
    Map<String, Long> baseOf = new HashMap<>();
    Map<String, Region> regions = new HashMap<>();
    long addr = 0;
    int reused = 0;
    int fresh = 0;

    List<Step> steps = program.steps();
    for (int t = 0; t < steps.size(); t++) {
      if (ctx.budget().exhausted(t)) {
        return Outcome.noSolution(
            OptionalLong.empty(), "budget exhausted at op " + t + " of " + steps.size());
      }
      Step op = steps.get(t);
      for (String v : op.inputs()) {
        Entry e = entryOf.get(v);
        if (e != null && e.refCnt >= 1) {
          e.refCnt--;
        }
      }
      Set<Long> operandAddrs = new HashSet<>();
      for (String v : op.inputs()) {
        Long a = baseOf.get(program.bufferOf(v));
        if (a != null) {
          operandAddrs.add(a);
        }
      }
      for (String r : op.outputs()) {
        String buf = program.bufferOf(r);
        Buffer b = instance.buffer(index.get(buf));
        long need = b.size();
        Region region = regions.computeIfAbsent(buf, k -> new Region(members.getOrDefault(k, 1)));
        region.defined++;
        if (need == 0) {
          baseOf.put(buf, 0L);
          continue;
        }
        Long placed = baseOf.get(buf);
        if (placed == null) {
          // the first value of its buffer: allocate the whole buffer (check_can_reuse_gmem)
          Entry reuse = null;
          for (Entry e : recTbl) {
            if (!holdEdges.contains(e.value)
                && !inUsingAddr.contains(e.offset)
                && e.refCnt == 0
                && e.size >= need
                && !operandAddrs.contains(e.offset)
                && e.offset % b.alignment() == 0) {
              reuse = e;
              break;
            }
          }
          if (reuse != null) {
            placed = reuse.offset;
            reused++;
          } else {
            placed = Alignment.up(addr, b.alignment());
            addr = placed + need;
            fresh++;
          }
          baseOf.put(buf, placed);
        }
        // record_info (for an in-place output this is fuse_address's record)
        Entry e = new Entry(r, placed, need, uses.getOrDefault(r, 0));
        recTbl.add(e);
        entryOf.put(r, e);
        region.sharers.add(e);
        holdEdges.add(r);
        inUsingAddr.add(placed);
        if (!op.inPlace()) {
          release(op, entryOf, holdEdges, inUsingAddr, regions, program);
        }
      }
      if (op.outputs().isEmpty() && !op.inPlace()) {
        release(op, entryOf, holdEdges, inUsingAddr, regions, program);
      }
    }
    long[] offsets = new long[instance.size()];
    for (int i = 0; i < instance.size(); i++) {
      Long a = baseOf.get(instance.buffer(i).id());
      if (a == null) {
        throw new IllegalStateException("buffer '" + instance.buffer(i).id() + "' was not placed");
      }
      offsets[i] = a;
    }
    return DsaOutcomes.fromOffsets(instance, offsets, Map.of("reused", reused, "fresh", fresh));
  }

  /** The values sharing one buffer, and how many of them are defined so far. */
  private static final class Region {
    final int members;
    int defined;
    final List<Entry> sharers = new ArrayList<>();

    Region(int members) {
      this.members = members;
    }

    /** Whether some value of the buffer is yet to be defined or still has a held reader. */
    boolean stillNeeded(Set<String> holdEdges) {
      if (defined < members) {
        return true;
      }
      for (Entry e : sharers) {
        if (e.refCnt > 0 && holdEdges.contains(e.value)) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * adjust_eol_edge: every held operand of {@code op} whose references are all gone leaves
   * hold_edges and its offset leaves in_using_addr — unless another value of the same buffer (the
   * other end of a Reshape, another member of a merged Concat) is still read or not yet defined
   * (departure (a)).
   */
  private static void release(
      Step op,
      Map<String, Entry> entryOf,
      Set<String> holdEdges,
      Set<Long> inUsingAddr,
      Map<String, Region> regions,
      Program program) {
    for (String v : op.inputs()) {
      Entry ve = entryOf.get(v);
      if (ve != null && holdEdges.contains(v) && ve.refCnt == 0) {
        holdEdges.remove(v);
        if (!regions.get(program.bufferOf(v)).stillNeeded(holdEdges)) {
          inUsingAddr.remove(ve.offset);
        }
      }
    }
  }
}
