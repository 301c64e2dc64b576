package io.github.memplan.core.device;

import java.util.Objects;

/**
 * One instance of the device memory problem: a {@link DeviceTrace} replayed on a {@link
 * DeviceLayout}. A device allocator ({@code PlannerProvider<DeviceProblem, DeviceRun>}) answers it
 * with a {@link DeviceRun}, which {@link DeviceRunValidator} checks.
 *
 * @param trace the host-runtime events and their networks
 * @param layout how DRAM is divided into code, data and logging regions
 */
public record DeviceProblem(DeviceTrace trace, DeviceLayout layout) {
  public DeviceProblem {
    Objects.requireNonNull(trace, "trace");
    Objects.requireNonNull(layout, "layout");
  }
}
