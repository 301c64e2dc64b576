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
 * tpu-mlir-gmem-allocation.rst}), as implemented in {@code
 * lib/Dialect/Tpu/Transforms/AddressAssign.cpp} at commit 58758a7ae (2022-08-27) and replaced in
 * October 2022. Pseudo-code in {@code reference/tpu-mlir.md} §1.10.
 *
 * <p>It walks the ops in order. For each op: (1) every operand's {@code rec_tbl} entry with {@code
 * ref_cnt >= 1} loses one reference; (2) a Reshape takes its input's address and is recorded with
 * its own reference count, nothing else; (3) each result reuses the <em>first</em> entry of {@code
 * rec_tbl}, in insertion order, that meets the five conditions — its value is not in {@code
 * hold_edges}, its offset is not in {@code in_using_addr}, its {@code ref_cnt} is 0, its size is at
 * least the result's, and its offset is no operand's address — or else takes fresh space at the top
 * ({@code addr = align_up(addr + size, 4096)}); the result is recorded, held and its offset marked
 * in use; (4) after each result, every held operand whose {@code ref_cnt} is 0 is released. Blocks
 * are never split or merged; a reused block is recorded again with the new, smaller size, while its
 * old entry stays in the table.
 *
 * <p>Characteristic behaviour: first fit by insertion order on exact old blocks; a result never
 * takes the address of one of its op's inputs, and an input freed by op {@code k} is reused from op
 * {@code k+1} on; a value that is only read by a Reshape is never released (the Reshape output is
 * not held, and the input is only released by an op that reads it).
 *
 * <p>Departures, each needed to keep plans valid for every instance: (a) a value is not released
 * while a Reshape alias of its address still has readers (the 2022 code would release it, and a
 * later result could overwrite the alias); (b) a reused offset must also meet the buffer's own
 * alignment (always true on BM168x, where every size is a multiple of 4 KiB); (c) zero-byte buffers
 * take offset 0 and no table entry; (d) an op without results still releases its dead inputs (in
 * TPU-MLIR only the return op has none; in the op view of an interval instance a step may only end
 * lifetimes, and without this its buffers would never be freed). Instances without a program
 * (MiniMalloc CSVs) run on {@link Program#fromIntervals}. Fixed offsets are not supported.
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
    Map<String, List<Entry>> aliasesOf = new HashMap<>();
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
        String source = op.inputs().get(0);
        long a = addrOf.get(source);
        for (String out : op.outputs()) {
          addrOf.put(out, a);
          Entry e =
              new Entry(out, a, sizeOf(instance, index, program, out), uses.getOrDefault(out, 0));
          recTbl.add(e);
          entryOf.put(out, e);
          aliasesOf.computeIfAbsent(program.bufferOf(out), k -> new ArrayList<>()).add(e);
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
        holdEdges.add(r);
        inUsingAddr.add(a);
        release(op, entryOf, holdEdges, inUsingAddr, aliasesOf, program);
      }
      if (op.outputs().isEmpty()) {
        release(op, entryOf, holdEdges, inUsingAddr, aliasesOf, program);
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

  /** Releases every held operand of {@code op} whose references are all gone. */
  private static void release(
      Step op,
      Map<String, Entry> entryOf,
      Set<String> holdEdges,
      Set<Long> inUsingAddr,
      Map<String, List<Entry>> aliasesOf,
      Program program) {
    for (String v : op.inputs()) {
      Entry ve = entryOf.get(v);
      if (holdEdges.contains(v)
          && ve.refCnt == 0
          && !aliasStillRead(aliasesOf.get(program.bufferOf(v)))) {
        inUsingAddr.remove(ve.offset);
        holdEdges.remove(v);
      }
    }
  }

  private static boolean aliasStillRead(List<Entry> aliases) {
    if (aliases == null) {
      return false;
    }
    for (Entry e : aliases) {
      if (e.refCnt > 0) {
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
