package io.github.memplan.baseline.tpumlir;

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
 * <p>Departures, each needed to keep plans valid for every instance: (a) an offset stays in {@code
 * in_using_addr} while another held value at the same address (the other end of a Reshape) still
 * has readers — the source erases it as soon as either end is released, so a later result could
 * overwrite a live tensor; (b) a reused offset must also meet the buffer's own alignment (always
 * true on BM168x, where every size is a multiple of 4 KiB); (c) zero-byte buffers take offset 0 and
 * no table entry; (d) an op without results still releases its dead inputs (in TPU-MLIR only the
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

    List<Entry> recTbl = new ArrayList<>();
    Map<String, Entry> entryOf = new HashMap<>();
    Set<String> holdEdges = new HashSet<>();
    Set<Long> inUsingAddr = new HashSet<>();
    Map<String, Long> addrOf = new HashMap<>();
    Map<String, List<Entry>> sharers = new HashMap<>();
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
      if (op.inPlace()) {
        // fuse_address: the output takes the input's address; record_info holds it
        long a = addrOf.get(op.inputs().get(0));
        for (String out : op.outputs()) {
          addrOf.put(out, a);
          Entry e =
              new Entry(out, a, sizeOf(instance, index, program, out), uses.getOrDefault(out, 0));
          recTbl.add(e);
          entryOf.put(out, e);
          sharers.computeIfAbsent(program.bufferOf(out), k -> new ArrayList<>()).add(e);
          holdEdges.add(out);
          inUsingAddr.add(a);
        }
        continue;
      }
      Set<Long> operandAddrs = new HashSet<>();
      for (String v : op.inputs()) {
        Long a = addrOf.get(v);
        if (a != null) {
          operandAddrs.add(a);
        }
      }
      for (String r : op.outputs()) {
        Buffer b = instance.buffer(index.get(program.bufferOf(r)));
        long need = b.size();
        if (need == 0) {
          addrOf.put(r, 0L);
          continue;
        }
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
        long a;
        if (reuse != null) {
          a = reuse.offset;
          reused++;
        } else {
          a = alignUp(addr, b.alignment());
          addr = a + need;
          fresh++;
        }
        addrOf.put(r, a);
        Entry e = new Entry(r, a, need, uses.getOrDefault(r, 0));
        recTbl.add(e);
        entryOf.put(r, e);
        sharers.computeIfAbsent(program.bufferOf(r), k -> new ArrayList<>()).add(e);
        holdEdges.add(r);
        inUsingAddr.add(a);
        release(op, entryOf, holdEdges, inUsingAddr, sharers, program);
      }
      if (op.outputs().isEmpty()) {
        release(op, entryOf, holdEdges, inUsingAddr, sharers, program);
      }
    }
    long[] offsets = new long[instance.size()];
    for (int i = 0; i < instance.size(); i++) {
      Long a = addrOf.get(instance.buffer(i).id());
      if (a == null) {
        throw new IllegalStateException("buffer '" + instance.buffer(i).id() + "' was not placed");
      }
      offsets[i] = a;
    }
    return DsaOutcomes.fromOffsets(instance, offsets, Map.of("reused", reused, "fresh", fresh));
  }

  /**
   * adjust_eol_edge: every held operand of {@code op} whose references are all gone leaves
   * hold_edges and its offset leaves in_using_addr — unless another held value at the same address
   * (the other end of a Reshape) still has readers (departure (a)).
   */
  private static void release(
      Step op,
      Map<String, Entry> entryOf,
      Set<String> holdEdges,
      Set<Long> inUsingAddr,
      Map<String, List<Entry>> sharers,
      Program program) {
    for (String v : op.inputs()) {
      Entry ve = entryOf.get(v);
      if (holdEdges.contains(v) && ve.refCnt == 0) {
        holdEdges.remove(v);
        if (!stillRead(sharers.get(program.bufferOf(v)), holdEdges)) {
          inUsingAddr.remove(ve.offset);
        }
      }
    }
  }

  private static boolean stillRead(List<Entry> sameAddress, Set<String> holdEdges) {
    for (Entry e : sameAddress) {
      if (e.refCnt > 0 && holdEdges.contains(e.value)) {
        return true;
      }
    }
    return false;
  }

  private static long sizeOf(
      DsaInstance instance, Map<String, Integer> index, Program program, String value) {
    return instance.buffer(index.get(program.bufferOf(value))).size();
  }

  private static long alignUp(long value, long alignment) {
    long r = value % alignment;
    return r == 0 ? value : Math.addExact(value, alignment - r);
  }
}
