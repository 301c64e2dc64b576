package io.github.memplan.core.device;

import io.github.memplan.core.solve.Validator;
import io.github.memplan.core.solve.Violation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Re-checks a {@link DeviceRun} of a {@link DeviceProblem} from its buffer records alone: the run
 * is of the problem's trace and layout; every buffer is allocated and freed at events of the trace;
 * every buffer inside DRAM; logging only in the logging carve-out and nothing else there; with
 * separate code, code only in the code region and nothing else there; no two buffers that were live
 * at the same moment overlap in bytes. Returns the violations, never throws.
 *
 * <p>Time is counted in half-events: a buffer allocated at event {@code a} and freed at a later
 * event {@code f} lives {@code [2a, 2f)}; one allocated and released within the same event (the
 * rollback of a failed inference or load) lives {@code [2a, 2a + 1)}, so it conflicts with every
 * buffer placed in that event.
 */
public final class DeviceRunValidator implements Validator<DeviceProblem, DeviceRun> {
  @Override
  public List<Violation> validate(DeviceProblem problem, DeviceRun run) {
    List<Violation> v = new ArrayList<>();
    if (!run.trace().equals(problem.trace().name())) {
      v.add(
          new Violation(
              "trace",
              "the run replays trace "
                  + run.trace()
                  + ", not the problem's "
                  + problem.trace().name()));
    }
    if (!run.layout().equals(problem.layout())) {
      v.add(new Violation("layout", "the run's DRAM layout is not the problem's"));
      return v;
    }
    DeviceLayout l = run.layout();
    int events = problem.trace().events().size();
    for (BufferRecord r : run.buffers()) {
      BufferRecord.Common c = r.common();
      String who = describe(c);
      if (c.allocated() < -1 || c.allocated() >= events || c.freed() >= events) {
        v.add(
            new Violation(
                "event", who + " is allocated or freed outside the trace's " + events + " events"));
      }
      if (c.size() <= 0 || c.offset() < 0 || c.offset() + c.size() > l.dram()) {
        v.add(new Violation("bounds", who + " is not inside the DRAM of " + l.dram() + " B"));
        continue;
      }
      Region home =
          c.kind() == BufferKind.LOGGING
              ? l.logging()
              : run.separateCode()
                  ? (c.kind() == BufferKind.CODE ? l.code() : l.data())
                  : l.shared();
      if (!home.contains(c.offset(), c.size())) {
        v.add(
            new Violation(
                c.kind() == BufferKind.CODE ? "code-region" : "region",
                who + " is not inside the " + home.name() + " region"));
      }
      if (c.freed() >= 0 && c.freed() < c.allocated()) {
        v.add(new Violation("lifetime", who + " is freed before it is allocated"));
      }
    }
    // sweep over time: ends before begins at the same half-event; the live set stays disjoint
    // (a buffer that overlaps a live one is reported and left out), so checking the neighbours
    // by offset finds every overlap with a live buffer
    List<long[]> sweep = new ArrayList<>();
    List<BufferRecord.Common> all = new ArrayList<>();
    for (BufferRecord r : run.buffers()) {
      BufferRecord.Common c = r.common();
      int i = all.size();
      all.add(c);
      sweep.add(new long[] {begin(c), 1, i});
      if (end(c) != Long.MAX_VALUE) {
        sweep.add(new long[] {end(c), 0, i});
      }
    }
    sweep.sort(
        Comparator.<long[]>comparingLong(e -> e[0])
            .thenComparingLong(e -> e[1])
            .thenComparingLong(e -> e[2]));
    TreeMap<Long, BufferRecord.Common> live = new TreeMap<>();
    Set<Integer> left = new HashSet<>();
    for (long[] e : sweep) {
      int i = (int) e[2];
      BufferRecord.Common c = all.get(i);
      if (e[1] == 0) {
        if (!left.contains(i)) {
          live.remove(c.offset());
        }
        continue;
      }
      Map.Entry<Long, BufferRecord.Common> below = live.floorEntry(c.offset());
      Map.Entry<Long, BufferRecord.Common> above = live.higherEntry(c.offset());
      BufferRecord.Common hit = null;
      if (below != null && below.getKey() + below.getValue().size() > c.offset()) {
        hit = below.getValue();
      } else if (above != null && above.getKey() < c.offset() + c.size()) {
        hit = above.getValue();
      }
      if (hit != null) {
        v.add(
            new Violation(
                "overlap", describe(hit) + " and " + describe(c) + " overlap while both are live"));
        left.add(i);
      } else {
        live.put(c.offset(), c);
      }
    }
    return v;
  }

  private static long begin(BufferRecord.Common c) {
    return 2L * c.allocated();
  }

  private static long end(BufferRecord.Common c) {
    if (c.freed() < 0) {
      return Long.MAX_VALUE;
    }
    return c.freed() == c.allocated() ? 2L * c.freed() + 1 : 2L * c.freed();
  }

  private static String describe(BufferRecord.Common c) {
    return "buffer "
        + c.id()
        + " ("
        + c.kind().id()
        + " of "
        + c.network()
        + ", "
        + c.size()
        + " B at "
        + c.offset()
        + ", events "
        + c.allocated()
        + ".."
        + c.freed()
        + ")";
  }
}
