package io.github.memplan.baseline.glow.device;

import io.github.memplan.core.device.BufferKind;
import io.github.memplan.core.device.BufferRecord;
import io.github.memplan.core.device.DeviceEvent;
import io.github.memplan.core.device.DeviceLayout;
import io.github.memplan.core.device.DeviceProblem;
import io.github.memplan.core.device.DeviceRun;
import io.github.memplan.core.device.DeviceRunValidator;
import io.github.memplan.core.device.DeviceTrace;
import io.github.memplan.core.device.Network;
import io.github.memplan.core.device.Region;
import io.github.memplan.core.solve.Violation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Replays a {@link DeviceTrace} against a {@link DeviceAllocator}, following the lifetimes of the
 * seed {@code glow-esperanto-memory-management.rst} ("Memory Regions Of Each Network &amp;
 * Lifetime"): at boot the logging carve-out; a load allocates the network's code, then its
 * constants; a start allocates the inference's inputs, outputs, in/outs and internal area, in that
 * order; a finish frees them; an unload frees the code and constants and drops the network's pool.
 *
 * <p>A refused request is recorded as a {@link DeviceRun.Failure} with the free bytes and largest
 * free block of its region at that moment (from the live buffers, not from the allocator). A failed
 * load frees what it had placed and leaves the network unloaded: its inferences are skipped and its
 * unload does nothing. A failed start frees what it had placed and drops the inference. Sizes are
 * rounded up to {@link #ALIGN} bytes (a cache line, the granule of the seed's scale tensors).
 *
 * <p>Departures: the seed lets activations go "once the model completes (or even when the first
 * layer of the network has executed)" and outputs stay "until their value is consumed"; here every
 * per-inference buffer lives from the start to the finish event of its inference (the trace's
 * finish marks when the host has consumed the outputs). The seed's access permissions are not
 * modelled beyond keeping code in its region.
 *
 * <p>The run is checked by {@link DeviceRunValidator} before it is returned; a violation is a bug
 * and throws {@link IllegalStateException}.
 */
public final class DeviceSimulator {
  private DeviceSimulator() {}

  public static final long ALIGN = 64;

  private static final String NO_NETWORK = "-";

  public static DeviceRun run(DeviceTrace trace, DeviceAllocator allocator) {
    return new Replay(trace, allocator).run();
  }

  private static final class Replay {
    final DeviceTrace trace;
    final DeviceAllocator alloc;
    final DeviceLayout layout;
    final List<BufferRecord> records = new ArrayList<>();
    final TreeMap<Long, Long> live = new TreeMap<>();
    long liveBytes;
    final Map<String, List<Integer>> loadedBuffers = new HashMap<>();
    final Map<Long, List<Integer>> inferenceBuffers = new HashMap<>();
    final Set<Long> skipped = new HashSet<>();
    final List<DeviceRun.Failure> failures = new ArrayList<>();
    final List<DeviceRun.Sample> samples = new ArrayList<>();
    final Set<String> served = new TreeSet<>();
    int inferencesServed;
    int inferencesFailed;
    int loadsFailed;
    long peakLive;
    long peakHeld;

    Replay(DeviceTrace trace, DeviceAllocator alloc) {
      this.trace = trace;
      this.alloc = alloc;
      this.layout = alloc.layout();
    }

    DeviceRun run() {
      Region log = layout.logging();
      if (log.size() > 0) {
        records.add(
            new BufferRecord.LoggingBuffer(
                new BufferRecord.Common(
                    0, BufferKind.LOGGING, NO_NETWORK, log.start(), log.size(), -1, -1)));
        live.put(log.start(), log.size());
        liveBytes += log.size();
      }
      peakLive = liveBytes;
      peakHeld = liveBytes;
      for (int t = 0; t < trace.events().size(); t++) {
        DeviceEvent e = trace.events().get(t);
        switch (e.op()) {
          case LOAD -> load(t, trace.network(e.network()));
          case UNLOAD -> unload(t, e.network());
          case START -> start(t, trace.network(e.network()), e.inference());
          case FINISH -> finish(t, e.network(), e.inference());
        }
        long held = alloc.heldBytes() + log.size();
        peakLive = Math.max(peakLive, liveBytes);
        peakHeld = Math.max(peakHeld, held);
        samples.add(new DeviceRun.Sample(t, liveBytes, held, largestGap(layout.shared())));
      }
      DeviceRun run =
          new DeviceRun(
              trace.name(),
              alloc.id(),
              layout,
              alloc.separateCode(),
              records,
              failures,
              samples,
              inferencesServed,
              inferencesFailed,
              skipped.size(),
              loadsFailed,
              served.size(),
              peakLive,
              peakHeld);
      List<Violation> v = new DeviceRunValidator().validate(new DeviceProblem(trace, layout), run);
      if (!v.isEmpty()) {
        throw new IllegalStateException(
            "allocator " + alloc.id() + " produced an invalid run: " + v.get(0));
      }
      return run;
    }

    void load(int t, Network n) {
      List<Integer> got = new ArrayList<>();
      for (BufferKind k : List.of(BufferKind.CODE, BufferKind.CONSTANT)) {
        long size = k == BufferKind.CODE ? n.codeBytes() : n.constantBytes();
        if (size == 0) {
          continue;
        }
        int id = place(t, k, n.name(), -1, 0, size);
        if (id < 0) {
          release(t, got);
          loadsFailed++;
          return;
        }
        got.add(id);
      }
      loadedBuffers.put(n.name(), got);
    }

    void unload(int t, String network) {
      List<Integer> got = loadedBuffers.remove(network);
      if (got == null) {
        return; // its load failed
      }
      release(t, got);
      alloc.unload(network);
    }

    void start(int t, Network n, long inference) {
      if (!loadedBuffers.containsKey(n.name())) {
        skipped.add(inference);
        return;
      }
      List<Integer> got = new ArrayList<>();
      for (Network.Placeholder p : n.placeholders()) {
        int id = place(t, p.kind(), n.name(), inference, p.slot(), p.size());
        if (id < 0) {
          release(t, got);
          inferencesFailed++;
          return;
        }
        got.add(id);
      }
      inferenceBuffers.put(inference, got);
    }

    void finish(int t, String network, long inference) {
      List<Integer> got = inferenceBuffers.remove(inference);
      if (got == null) {
        return; // skipped or failed
      }
      release(t, got);
      inferencesServed++;
      served.add(network);
    }

    /** The new record's index, or -1 after recording a failure. */
    int place(int t, BufferKind kind, String network, long inference, int slot, long rawSize) {
      long size = (rawSize + ALIGN - 1) / ALIGN * ALIGN;
      DeviceAllocator.Request r = new DeviceAllocator.Request(kind, network, slot, size);
      OptionalLong at = alloc.allocate(r);
      if (at.isEmpty()) {
        Region region = alloc.regionFor(kind);
        failures.add(
            new DeviceRun.Failure(
                t,
                network,
                inference,
                kind,
                size,
                region.size() - liveIn(region),
                largestGap(region)));
        return -1;
      }
      long offset = at.getAsLong();
      BufferRecord.Common c =
          new BufferRecord.Common(records.size(), kind, network, offset, size, t, -1);
      records.add(
          switch (kind) {
            case CODE -> new BufferRecord.CodeBuffer(c);
            case CONSTANT -> new BufferRecord.ConstantBuffer(c);
            default -> new BufferRecord.PlaceholderBuffer(c, inference, slot);
          });
      if (live.put(offset, size) != null) {
        throw new IllegalStateException(
            "allocator " + alloc.id() + " placed two live buffers at " + offset);
      }
      liveBytes += size;
      return records.size() - 1;
    }

    void release(int t, List<Integer> ids) {
      for (int i = ids.size() - 1; i >= 0; i--) {
        int id = ids.get(i);
        BufferRecord r = records.get(id);
        BufferRecord.Common c = r.common();
        long slot = r instanceof BufferRecord.PlaceholderBuffer p ? p.slot() : 0;
        alloc.free(
            new DeviceAllocator.Request(c.kind(), c.network(), (int) slot, c.size()), c.offset());
        live.remove(c.offset());
        liveBytes -= c.size();
        records.set(id, r.freedAt(t));
      }
    }

    long liveIn(Region region) {
      long sum = 0;
      for (Map.Entry<Long, Long> b : live.subMap(region.start(), region.end()).entrySet()) {
        sum += b.getValue();
      }
      return sum;
    }

    long largestGap(Region region) {
      long best = 0;
      long cursor = region.start();
      for (Map.Entry<Long, Long> b : live.subMap(region.start(), region.end()).entrySet()) {
        best = Math.max(best, b.getKey() - cursor);
        cursor = b.getKey() + b.getValue();
      }
      return Math.max(best, region.end() - cursor);
    }
  }
}
