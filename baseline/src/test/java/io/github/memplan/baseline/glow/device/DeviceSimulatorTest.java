package io.github.memplan.baseline.glow.device;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.device.BufferKind;
import io.github.memplan.core.device.BufferRecord;
import io.github.memplan.core.device.DeviceAllocatorContract;
import io.github.memplan.core.device.DeviceEvent;
import io.github.memplan.core.device.DeviceLayout;
import io.github.memplan.core.device.DeviceProblem;
import io.github.memplan.core.device.DeviceRun;
import io.github.memplan.core.device.DeviceRunValidator;
import io.github.memplan.core.device.DeviceTrace;
import io.github.memplan.core.device.DeviceTraceGenerators;
import io.github.memplan.core.device.Network;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class DeviceSimulatorTest {
  static final long MIB = 1 << 20;
  static final DeviceLayout L = DeviceLayout.of(64 * MIB);

  static final List<Network> CATALOGUE = DeviceAllocatorContract.CATALOGUE;

  static DeviceTrace serving(long seed) {
    return DeviceTraceGenerators.serving(
        CATALOGUE, seed, new DeviceTraceGenerators.Serving(3, 3, 120, 20));
  }

  static List<String> ids() {
    return DeviceAllocators.IDS;
  }

  static DeviceRun run(DeviceTrace t, String id) {
    return DeviceSimulator.run(t, DeviceAllocators.create(id, L));
  }

  @Test
  void everyAllocatorGivesAValidDeterministicRun() {
    for (String id : ids()) {
      DeviceRun r = run(serving(3), id);
      assertThat(new DeviceRunValidator().validate(new DeviceProblem(serving(3), L), r))
          .as(id)
          .isEmpty();
      assertThat(run(serving(3), id)).as(id).isEqualTo(r);
      assertThat(r.samples()).hasSize(serving(3).events().size());
      assertThat(r.inferencesServed() + r.inferencesFailed() + r.inferencesSkipped())
          .as(id)
          .isEqualTo(120);
      assertThat(r.peakHeldBytes()).as(id).isGreaterThanOrEqualTo(r.peakLiveBytes());
    }
  }

  /** Load a, then inferences 0..n-1 with two in flight: s0 s1 f0 s2 f1 s3 ... */
  static DeviceTrace pipelined(int n) {
    Network a = CATALOGUE.get(0);
    List<DeviceEvent> ev = new ArrayList<>();
    ev.add(DeviceEvent.load("a"));
    ev.add(DeviceEvent.start("a", 0));
    for (int i = 1; i < n; i++) {
      ev.add(DeviceEvent.start("a", i));
      ev.add(DeviceEvent.finish("a", i - 1));
    }
    ev.add(DeviceEvent.finish("a", n - 1));
    return new DeviceTrace("pipe", List.of(a), ev);
  }

  @Test
  void poolReusesPlaceholdersAcrossInferences() {
    for (String id : List.of("pool", "combined")) {
      DeviceRun r = run(pipelined(20), id);
      Set<Long> offsets = new TreeSet<>();
      for (BufferRecord b : r.buffers()) {
        if (b instanceof BufferRecord.PlaceholderBuffer) {
          offsets.add(b.common().offset());
        }
      }
      // two inferences in flight x three buffers (input, output, internal)
      assertThat(offsets).as(id).hasSize(6);
      // no new allocation in steady state: the allocator holds the same bytes from the second start
      List<Long> held = r.samples().stream().skip(2).map(DeviceRun.Sample::heldBytes).toList();
      assertThat(new TreeSet<>(held)).as(id).hasSize(1);
    }
    // without a pool, held bytes follow the live ones
    DeviceRun lin = run(pipelined(20), "linear");
    assertThat(lin.samples().get(lin.samples().size() - 1).heldBytes())
        .isEqualTo(L.logging().size() + (CATALOGUE.get(0).codeBytes() + 63) / 64 * 64 + 3 * MIB);
  }

  @Test
  void codeNeverLandsInTheDataRegion() {
    DeviceRun r = run(serving(5), "combined");
    assertThat(r.separateCode()).isTrue();
    int code = 0;
    for (BufferRecord b : r.buffers()) {
      BufferRecord.Common c = b.common();
      if (c.kind() == BufferKind.CODE) {
        code++;
        assertThat(L.code().contains(c.offset(), c.size())).as(c.toString()).isTrue();
      } else if (c.kind() != BufferKind.LOGGING) {
        assertThat(L.data().contains(c.offset(), c.size())).as(c.toString()).isTrue();
      }
    }
    assertThat(code).isGreaterThan(3);
    // code that does not fit the code region fails there, even with the data region free
    Network big = new Network("big", L.code().size() + 64, 64, List.of(), List.of(), List.of(), 0);
    DeviceRun f =
        run(new DeviceTrace("big", List.of(big), List.of(DeviceEvent.load("big"))), "combined");
    assertThat(f.failures()).hasSize(1);
    assertThat(f.failures().get(0).kind()).isEqualTo(BufferKind.CODE);
    assertThat(f.failures().get(0).freeBytes()).isEqualTo(L.code().size());
    assertThat(f.loadsFailed()).isEqualTo(1);
    assertThat(run(bigTrace(big), "linear").failures()).isEmpty();
  }

  private static DeviceTrace bigTrace(Network big) {
    return new DeviceTrace("big", List.of(big), List.of(DeviceEvent.load("big")));
  }

  @Test
  void aFailedStartRollsBackAndNamesItsInference() {
    Network n = new Network("n", 64, 64, List.of(10 * MIB), List.of(), List.of(), 60 * MIB);
    DeviceTrace t =
        new DeviceTrace(
            "t",
            List.of(n),
            List.of(DeviceEvent.load("n"), DeviceEvent.start("n", 7), DeviceEvent.finish("n", 7)));
    DeviceRun r = run(t, "linear");
    assertThat(r.failures()).hasSize(1);
    DeviceRun.Failure f = r.failures().get(0);
    assertThat(f.network()).isEqualTo("n");
    assertThat(f.inference()).isEqualTo(7);
    assertThat(f.kind()).isEqualTo(BufferKind.INTERNAL);
    assertThat(f.withFreeSpace()).isFalse();
    assertThat(r.inferencesFailed()).isEqualTo(1);
    BufferRecord input = r.buffers().get(r.buffers().size() - 1);
    assertThat(input).isInstanceOf(BufferRecord.PlaceholderBuffer.class);
    assertThat(((BufferRecord.PlaceholderBuffer) input).inference()).isEqualTo(7);
    assertThat(input.common().allocated()).isEqualTo(1);
    assertThat(input.common().freed()).isEqualTo(1);
  }

  private static DeviceRun.Failure onlyFailure(DeviceRun r) {
    assertThat(r.failures()).as(r.allocator()).hasSize(1);
    return r.failures().get(0);
  }

  @Test
  void worstCases() {
    DeviceTrace frag = DeviceTraceGenerators.fragment(L);
    for (String id : List.of("linear", "best-fit", "bidirectional", "pool", "combined")) {
      DeviceRun r = run(frag, id);
      // combined has 1/16 of DRAM less for data (the code region): its 15th load fails too
      assertThat(r.failures()).as(id).hasSize(id.equals("combined") ? 2 : 1);
      DeviceRun.Failure f = r.failures().get(r.failures().size() - 1);
      assertThat(f.network()).isEqualTo("w-big");
      assertThat(f.withFreeSpace()).as(id).isTrue();
      assertThat(f.withFreeBlock()).as(id).isFalse();
    }
    DeviceTrace hoard = DeviceTraceGenerators.poolHoard(L, 4);
    for (String id : List.of("pool", "combined")) {
      DeviceRun.Failure f = onlyFailure(run(hoard, id));
      assertThat(f.kind()).isEqualTo(BufferKind.INTERNAL);
      assertThat(f.withFreeSpace()).as(id).isTrue();
    }
    assertThat(run(hoard, "linear").failures()).isEmpty();
    DeviceTrace pin = DeviceTraceGenerators.pinFront(L);
    DeviceRun.Failure p = onlyFailure(run(pin, "bidirectional"));
    assertThat(p.kind()).isEqualTo(BufferKind.CONSTANT);
    assertThat(p.withFreeBlock()).isTrue();
    assertThat(run(pin, "linear").failures()).isEmpty();
    DeviceTrace round = DeviceTraceGenerators.buddyRound(L);
    // 64 MiB less the logging carve-out leaves buddy a 32 MiB span: only the first network fits
    DeviceRun buddy = run(round, "buddy");
    assertThat(buddy.failures()).hasSize(2).allMatch(DeviceRun.Failure::withFreeBlock);
    assertThat(buddy.loadsFailed()).isEqualTo(2);
    assertThat(run(round, "linear").failures()).isEmpty();
  }
}
