package io.github.memplan.experiments.cli;

/**
 * The byte formatter under the name {@code DeviceCommand} still calls ({@link Report#bytes}), until
 * that command is rewired onto the typed run path.
 */
final class PlanRun {
  private PlanRun() {}

  static String bytes(long n) {
    return Report.bytes(n);
  }
}
