package io.github.memplan.baseline.glow.device;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.device.Region;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Hand-worked cases of the region allocators. */
class RegionAllocatorsTest {
  static final Region R = new Region("r", 1000, 1000); // [1000, 2000)

  @Test
  void linearTakesTheFirstGapBigEnough() {
    LinearAllocator a = new LinearAllocator(R, LinearAllocator.Fit.FIRST);
    assertThat(a.allocate(100)).hasValue(1000); // [1000,1100)
    assertThat(a.allocate(300)).hasValue(1100); // [1100,1400)
    assertThat(a.allocate(50)).hasValue(1400); // [1400,1450)
    assertThat(a.allocate(200)).hasValue(1450); // [1450,1650)
    a.free(1000); // gap [1000,1100) of 100
    a.free(1400); // gap [1400,1450) of 50
    assertThat(a.allocate(40)).hasValue(1000); // first gap, although the second is tighter
    assertThat(a.allocate(60)).hasValue(1040); // the rest of that gap, exactly
    assertThat(a.heldBytes()).isEqualTo(40 + 60 + 300 + 200);
    assertThat(a.allocate(351)).isEmpty(); // gaps left: 50 at 1400, 350 at 1650
    assertThat(a.allocate(51)).hasValue(1650);
    assertThat(a.allocate(50)).hasValue(1400);
  }

  @Test
  void bestFitTakesTheTightestGap() {
    LinearAllocator a = new LinearAllocator(R, LinearAllocator.Fit.BEST);
    a.allocate(100); // 1000
    a.allocate(300); // 1100
    a.allocate(50); // 1400
    a.allocate(200); // 1450
    a.free(1000);
    a.free(1400);
    assertThat(a.allocate(40)).hasValue(1400); // gaps 100 @1000, 50 @1400, 350 @1650
    assertThat(a.allocate(100)).hasValue(1000);
    assertThat(a.allocate(351)).isEmpty();
    assertThat(a.allocate(350)).hasValue(1650);
  }

  @Test
  void bidirectionalFailsExactlyWhenTheFrontsWouldCross() {
    BidirectionalAllocator b = new BidirectionalAllocator(R);
    RegionAllocator low = b.low();
    RegionAllocator high = b.high();
    assertThat(low.allocate(300)).hasValue(1000);
    assertThat(high.allocate(400)).hasValue(1600);
    assertThat(b.lowFront()).isEqualTo(1300);
    assertThat(b.highFront()).isEqualTo(1600);
    // 300 bytes between the fronts: 301 crosses from either side, 300 meets exactly
    assertThat(low.allocate(301)).isEmpty();
    assertThat(high.allocate(301)).isEmpty();
    assertThat(high.allocate(300)).hasValue(1300);
    assertThat(low.allocate(1)).isEmpty();
    assertThat(high.allocate(1)).isEmpty();
    // a freed outermost block lets its front retreat; an inner one leaves a gap for its side only
    high.free(1300);
    assertThat(b.highFront()).isEqualTo(1600);
    low.free(1000); // a gap [1000,1300) behind nothing: the low front falls back to 1000
    assertThat(b.lowFront()).isEqualTo(1000);
    assertThat(high.allocate(600)).hasValue(1000);
    assertThat(low.allocate(1)).isEmpty();
  }

  @Test
  void bidirectionalSidesReuseTheirOwnGapsFirstFit() {
    BidirectionalAllocator b = new BidirectionalAllocator(R);
    RegionAllocator high = b.high();
    assertThat(high.allocate(100)).hasValue(1900);
    assertThat(high.allocate(100)).hasValue(1800);
    assertThat(high.allocate(100)).hasValue(1700);
    high.free(1900);
    high.free(1800);
    // the gap [1800,2000) is searched from the top: the block goes to its top
    assertThat(high.allocate(50)).hasValue(1950);
    assertThat(b.highFront()).isEqualTo(1700);
    RegionAllocator low = b.low();
    assertThat(low.allocate(700)).hasValue(1000);
    assertThat(low.allocate(1)).isEmpty();
  }

  @Test
  void buddySplitsRoundsAndMerges() {
    BuddyAllocator a = new BuddyAllocator(new Region("r", 4096, 65536 + 5000));
    assertThat(a.allocate(5000)).hasValue(4096); // 8 KiB at 0
    assertThat(a.allocate(4096)).hasValue(4096 + 8192); // 4 KiB at 8 KiB
    assertThat(a.allocate(20000)).hasValue(4096 + 32768); // 32 KiB at 32 KiB
    assertThat(a.heldBytes()).isEqualTo(8192 + 4096 + 32768);
    assertThat(a.allocate(16385)).isEmpty(); // would need 32 KiB; only 16 KiB and 4 KiB left
    assertThat(a.allocate(16384)).hasValue(4096 + 16384);
    a.free(4096 + 8192);
    a.free(4096);
    a.free(4096 + 16384);
    a.free(4096 + 32768);
    assertThat(a.heldBytes()).isZero();
    assertThat(a.allocate(65536)).hasValue(4096); // merged back into one block
    assertThat(a.allocate(1)).isEmpty(); // the 5000 bytes past the power of two are never used
  }

  @Test
  void poolReusesANetworksEntries() {
    LinearAllocator backing = new LinearAllocator(R, LinearAllocator.Fit.FIRST);
    PoolAllocator p = new PoolAllocator(backing);
    OptionalLong a0 = p.allocate("a", 0, 100);
    OptionalLong a1 = p.allocate("a", 1, 200);
    assertThat(a0).hasValue(1000);
    assertThat(a1).hasValue(1100);
    p.free("a", 1000);
    p.free("a", 1100);
    assertThat(p.allocate("b", 0, 100)).hasValue(1300); // another network's pool is separate
    assertThat(p.allocate("a", 1, 200)).hasValue(1100); // same slot, same entry
    assertThat(p.allocate("a", 2, 50)).hasValue(1000); // the smallest idle entry that holds it
    assertThat(p.newEntries()).isEqualTo(3);
    p.free("a", 1000);
    p.free("a", 1100);
    p.unload("a");
    assertThat(backing.heldBytes()).isEqualTo(100);
    assertThat(backing.allocate(300)).hasValue(1000);
  }
}
