package io.github.memplan.baseline.tpumlir.gmem;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import java.util.Map;
import java.util.OptionalLong;

/**
 * TPU-MLIR's current GMEM allocation of activations, {@code GmemAllocator::assignGaddr} ({@code
 * lib/Support/GmemAllocator.cpp}, {@code sophgo/tpu-mlir} at 36e3c625a; {@code
 * reference/tpu-mlir.md} §1.6): with address reuse on (the default), it runs {@link
 * GmemAllocFitFirst} and then {@link GmemAllocOpSizeOrder} on the same live-start-ordered values
 * and keeps the plan with the smaller footprint, the first on a tie. As in the source, a footprint
 * of 0 does not count as a minimum ({@code gmem_size < min_gmem_size || min_gmem_size == 0}), so
 * when FitFirst's footprint is 0 the second method's plan is kept.
 *
 * <p>Stats: {@code fitFirstFootprint}, {@code opSizeOrderFootprint} and {@code opSizeOrderWon} (1
 * when OpSizeOrderAssign was kept, 0 for FitFirstAssign); the message repeats the source's log line
 * {@code GmemAllocator use <method>}. When the kept plan is FitFirst's and overlaps (see {@link
 * GmemAllocFitFirst}), the outcome is {@link Outcome#error}: TPU-MLIR would have used it. A
 * FitFirst plan that overlaps but loses changes nothing, as in the source; stat {@code
 * fitFirstInvalid} is 1 then.
 *
 * <p>Departures are those of the two methods and of {@link GmemValues}. The source compares the
 * padded footprints, as here; on GMEM instances these are the peaks.
 */
public final class GmemAllocator implements Planner<DsaInstance, DsaSolution> {

  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    GmemValues values = GmemValues.of(instance, "tpumlir");
    long[] fitFirst = GmemAllocFitFirst.assign(values, ctx.budget());
    if (fitFirst == null) {
      return Outcome.noSolution(
          OptionalLong.empty(), "budget exhausted (" + GmemAllocFitFirst.METHOD + ")");
    }
    long[] opSize = GmemAllocOpSizeOrder.assign(values, ctx.budget());
    if (opSize == null) {
      return Outcome.noSolution(
          OptionalLong.empty(), "budget exhausted (" + GmemAllocOpSizeOrder.METHOD + ")");
    }
    long fitFirstUsed = values.footprint(fitFirst);
    long opSizeUsed = values.footprint(opSize);
    boolean opSizeWins = opSizeUsed < fitFirstUsed || fitFirstUsed == 0;
    Outcome<DsaSolution> fitFirstOutcome =
        values.outcome(instance, fitFirst, GmemAllocFitFirst.METHOD, Map.of());
    String method = opSizeWins ? GmemAllocOpSizeOrder.METHOD : GmemAllocFitFirst.METHOD;
    Outcome<DsaSolution> kept =
        opSizeWins
            ? values.outcome(instance, opSize, GmemAllocOpSizeOrder.METHOD, Map.of())
            : fitFirstOutcome;
    Map<String, Number> stats =
        Map.of(
            "fitFirstFootprint",
            fitFirstUsed,
            "opSizeOrderFootprint",
            opSizeUsed,
            "opSizeOrderWon",
            opSizeWins ? 1 : 0,
            "fitFirstInvalid",
            fitFirstOutcome.status() == Status.ERROR ? 1 : 0);
    String log = "GmemAllocator use " + method;
    return kept.withStats(stats)
        .withMessage(kept.message().isEmpty() ? log : log + ": " + kept.message());
  }
}
