package io.github.memplan.baseline.glow.device;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.device.DeviceAllocatorContract;
import io.github.memplan.core.device.DeviceProblem;
import io.github.memplan.core.device.DeviceRun;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.Planners;
import org.junit.jupiter.api.Test;

/** {@link DeviceAllocatorContract} on every device allocator. */
class DeviceAllocatorContractTest {
  static class Linear extends DeviceAllocatorContract {
    @Override
    protected PlannerProvider<DeviceProblem, DeviceRun> provider() {
      return registered("linear");
    }
  }

  static class Pool extends DeviceAllocatorContract {
    @Override
    protected PlannerProvider<DeviceProblem, DeviceRun> provider() {
      return registered("pool");
    }
  }

  static class Bidirectional extends DeviceAllocatorContract {
    @Override
    protected PlannerProvider<DeviceProblem, DeviceRun> provider() {
      return registered("bidirectional");
    }
  }

  static class Combined extends DeviceAllocatorContract {
    @Override
    protected PlannerProvider<DeviceProblem, DeviceRun> provider() {
      return registered("combined");
    }
  }

  static class BestFit extends DeviceAllocatorContract {
    @Override
    protected PlannerProvider<DeviceProblem, DeviceRun> provider() {
      return registered("best-fit");
    }
  }

  static class Buddy extends DeviceAllocatorContract {
    @Override
    protected PlannerProvider<DeviceProblem, DeviceRun> provider() {
      return registered("buddy");
    }
  }

  /** An allocator added without a contract class above fails here. */
  @Test
  void everyAllocatorIsRegisteredAndHasTheContract() {
    assertThat(Planners.forInstance(DeviceProblem.class).stream().map(PlannerProvider::id))
        .containsExactlyInAnyOrderElementsOf(DeviceAllocators.IDS);
  }
}
