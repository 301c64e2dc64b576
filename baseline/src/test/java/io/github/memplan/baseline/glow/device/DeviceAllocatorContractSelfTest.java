package io.github.memplan.baseline.glow.device;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.device.BufferRecord;
import io.github.memplan.core.device.DeviceAllocatorContract;
import io.github.memplan.core.device.DeviceProblem;
import io.github.memplan.core.device.DeviceRun;
import io.github.memplan.core.solve.ContractRuns;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * Shows that {@link DeviceAllocatorContract} fails broken allocators: each nested contract runs the
 * inherited suite on a deliberately wrong one, built on {@code linear}'s runs, through the JUnit
 * engine test kit. It lives here rather than in core because the broken allocators are made from
 * this module's simulator.
 */
class DeviceAllocatorContractSelfTest {

  /** A provider of {@code planner} that resolves its parameters (none). */
  static PlannerProvider<DeviceProblem, DeviceRun> broken(Planner<DeviceProblem, DeviceRun> p) {
    return new PlannerProvider<>() {
      @Override
      public String id() {
        return "test-broken";
      }

      @Override
      public String description() {
        return "a deliberately broken allocator";
      }

      @Override
      public String citation() {
        return "none: a test double";
      }

      @Override
      public Class<DeviceProblem> instanceType() {
        return DeviceProblem.class;
      }

      @Override
      public Planner<DeviceProblem, DeviceRun> create(PlannerConfig config) {
        return p;
      }
    };
  }

  /** {@code linear}'s run, changed by {@code change}. */
  static PlannerProvider<DeviceProblem, DeviceRun> linearThen(UnaryOperator<DeviceRun> change) {
    Planner<DeviceProblem, DeviceRun> linear = new DeviceAllocatorPlanner("linear");
    return broken(
        (p, ctx) ->
            Outcome.feasible(change.apply(linear.solve(p, ctx).solution()), OptionalLong.empty()));
  }

  /** {@code r} with other buffer records and peaks. */
  static DeviceRun withRecords(
      DeviceRun r, List<BufferRecord> buffers, long peakLiveBytes, long peakHeldBytes) {
    return new DeviceRun(
        r.trace(),
        r.allocator(),
        r.layout(),
        r.separateCode(),
        buffers,
        r.failures(),
        r.samples(),
        r.inferencesServed(),
        r.inferencesFailed(),
        r.inferencesSkipped(),
        r.loadsFailed(),
        r.networksServed(),
        peakLiveBytes,
        peakHeldBytes);
  }

  /** The run with every code buffer moved to the start of the logging carve-out. */
  @Disabled("run only through DeviceAllocatorContractSelfTest: it must fail")
  static class CodeInLoggingContract extends DeviceAllocatorContract {
    @Override
    protected PlannerProvider<DeviceProblem, DeviceRun> provider() {
      return linearThen(
          r -> {
            List<BufferRecord> moved = new ArrayList<>();
            for (BufferRecord b : r.buffers()) {
              BufferRecord.Common c = b.common();
              moved.add(
                  b instanceof BufferRecord.CodeBuffer
                      ? new BufferRecord.CodeBuffer(
                          new BufferRecord.Common(
                              c.id(),
                              c.kind(),
                              c.network(),
                              r.layout().logging().start(),
                              c.size(),
                              c.allocated(),
                              c.freed()))
                      : b);
            }
            return withRecords(r, moved, r.peakLiveBytes(), r.peakHeldBytes());
          });
    }
  }

  /** The run with its peak live bytes over-reported by a cache line. */
  @Disabled("run only through DeviceAllocatorContractSelfTest: it must fail")
  static class WrongPeakContract extends DeviceAllocatorContract {
    @Override
    protected PlannerProvider<DeviceProblem, DeviceRun> provider() {
      return linearThen(
          r -> withRecords(r, r.buffers(), r.peakLiveBytes() + 64, r.peakHeldBytes() + 64));
    }
  }

  /** Valid runs, but {@code linear}'s and {@code best-fit}'s in turn. */
  @Disabled("run only through DeviceAllocatorContractSelfTest: it must fail")
  static class StatefulContract extends DeviceAllocatorContract {
    private final AtomicLong runs = new AtomicLong();

    @Override
    protected PlannerProvider<DeviceProblem, DeviceRun> provider() {
      Planner<DeviceProblem, DeviceRun> linear = new DeviceAllocatorPlanner("linear");
      Planner<DeviceProblem, DeviceRun> bestFit = new DeviceAllocatorPlanner("best-fit");
      return broken((p, ctx) -> (runs.incrementAndGet() % 2 == 0 ? linear : bestFit).solve(p, ctx));
    }
  }

  /** Accepts any parameter. */
  @Disabled("run only through DeviceAllocatorContractSelfTest: it must fail")
  static class LenientContract extends DeviceAllocatorContract {
    @Override
    protected PlannerProvider<DeviceProblem, DeviceRun> provider() {
      PlannerProvider<DeviceProblem, DeviceRun> strict =
          broken(new DeviceAllocatorPlanner("linear"));
      return ContractRuns.ignoringUnknownParameters(strict);
    }
  }

  @Test
  void anInvalidRunIsCaught() {
    Map<String, String> failed =
        ContractRuns.failures(ContractRuns.run(CodeInLoggingContract.class));
    assertThat(failed).containsKeys("fragment@67108864", "cancelled", "zero deadline");
    assertThat(failed.get("fragment@67108864")).contains("invalid run").contains("code-region");
    assertThat(failed).doesNotContainKeys("sameProblemSameRun()", "unknownParametersFail()");
  }

  @Test
  void metricsThatDisagreeWithTheRecordsAreCaught() {
    Map<String, String> failed = ContractRuns.failures(ContractRuns.run(WrongPeakContract.class));
    assertThat(failed).containsKey("serving-k3-d3-n120-s1@67108864");
    assertThat(failed.get("serving-k3-d3-n120-s1@67108864")).contains("peak live bytes");
  }

  @Test
  void aNonReproducibleAllocatorIsCaught() {
    Map<String, String> failed = ContractRuns.failures(ContractRuns.run(StatefulContract.class));
    assertThat(failed.keySet()).containsExactly("sameProblemSameRun()");
  }

  @Test
  void acceptingUnknownParametersIsCaught() {
    Map<String, String> failed = ContractRuns.failures(ContractRuns.run(LenientContract.class));
    assertThat(failed.keySet()).containsExactly("unknownParametersFail()");
  }
}
