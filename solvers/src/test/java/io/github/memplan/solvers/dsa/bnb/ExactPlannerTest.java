package io.github.memplan.solvers.dsa.bnb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaFixtures;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaPlannerContract;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.DsaValidator;
import io.github.memplan.core.dsa.Gap;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import io.github.memplan.solvers.dsa.SearchModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The capacity loop of {@link ExactPlanner} and its reductions, on hand-worked instances. */
class ExactPlannerTest {

  private static Outcome<DsaSolution> solve(ExactPlanner p, DsaInstance inst) {
    return p.solve(inst, SolveContext.unlimited());
  }

  /** The fragmentation fixture with every size times {@code k}: max load 4k, optimum 5k. */
  private static DsaInstance fragmentation(long k) {
    List<Buffer> bs = new ArrayList<>();
    for (Buffer b : DsaFixtures.fragmentation().instance().buffers()) {
      bs.add(Buffer.of(b.id(), b.lower(), b.upper(), b.size() * k));
    }
    return DsaInstance.of("fragmentation-x" + k, bs);
  }

  @Test
  void provesTheOptimumAboveTheMaxLoadInStepsOfTheGranularity() {
    // every size is a multiple of 1024, so is every gravity offset and the optimum: one proof at
    // 4 KiB, then the next candidate is 5 KiB, not 4 KiB + 1
    Outcome<DsaSolution> out = solve(new ExactPlanner(), fragmentation(1024));
    assertThat(out.status()).isEqualTo(Status.OPTIMAL);
    assertThat(DsaPlannerContract.assertSolved(fragmentation(1024), out)).isEqualTo(5 * 1024);
    assertThat(out.stats()).containsEntry("proofs", 1.0).containsEntry("max-load-bound", 4096.0);
  }

  @Test
  void aSearchCutShortProvesNothing() {
    // one node: the greedy incumbent stands, the bound stays at the max load
    ExactPlanner p = new ExactPlanner(ExactPlanner.Options.defaults().withNodeLimit(1));
    DsaInstance inst = fragmentation(1);
    Outcome<DsaSolution> out = solve(p, inst);
    assertThat(out.status()).isEqualTo(Status.FEASIBLE);
    assertThat(out.lowerBound()).hasValue(4);
    assertThat(DsaPlannerContract.assertSolved(inst, out)).isGreaterThanOrEqualTo(5);
    // and with the capacity at the max load: no placement, and no claim that none exists
    Outcome<DsaSolution> bounded = solve(p, inst.withCapacity(4));
    assertThat(bounded.status()).isEqualTo(Status.NO_SOLUTION_IN_BUDGET);
    assertThat(bounded.lowerBound()).hasValue(4);
  }

  @Test
  void timeLimitIsAnAnytimeBudget() {
    DsaInstance inst = fragmentation(1);
    Budget spent = Budget.unlimited();
    spent.cancel();
    Outcome<DsaSolution> out = new ExactPlanner().solve(inst, SolveContext.of(1, spent));
    DsaPlannerContract.assertBudgetRespected(inst, out);
    assertThat(out.status()).isNotEqualTo(Status.OPTIMAL);
  }

  /**
   * U lives from 0 to 5, with every buffer of the fragmentation fixture: it owns its band of
   * addresses, so it goes underneath and the optimum is 3 + 5.
   */
  @Test
  void aBufferAliveWithAllOthersIsStackedUnderneath() {
    List<Buffer> bs = new ArrayList<>(DsaFixtures.fragmentation().instance().buffers());
    bs.add(Buffer.of("U", 0, 5, 3));
    DsaInstance inst = DsaInstance.of("with-universal", bs);
    Outcome<DsaSolution> out = solve(new ExactPlanner(), inst);
    assertThat(out.status()).isEqualTo(Status.OPTIMAL);
    assertThat(DsaPlannerContract.assertSolved(inst, out)).isEqualTo(8);
    assertThat(out.solution().offset(bs.size() - 1)).isZero();
    assertThat(out.stats()).containsEntry("universal-buffers", 1.0);
    assertThat(out.lowerBound()).hasValue(8);
    // bounded: 7 is proven too small
    assertThat(solve(new ExactPlanner(), inst.withCapacity(7)).status())
        .isEqualTo(Status.INFEASIBLE);
  }

  /**
   * b5 (16 bytes) lives with every other buffer that occupies something and goes underneath. The
   * zero-size b0 fixed at 20 ends at 20 but occupies nothing: the rest must not read its end as
   * room (b3 at 16 would end at 19 < 20 in the rest, then at 35 once lifted). Optimum 32 at time 6:
   * b5 16, b3 3 (aligned to 8), b2 13.
   */
  @Test
  void universalBuffersDoNotLendTheRestTheEndOfAnEmptyFixedBuffer() {
    DsaInstance inst =
        DsaInstance.of(
            "universal-and-empty-fixed",
            List.of(
                Buffer.of("b0", 1, 6, 0).withFixedOffset(20),
                Buffer.of("b2", 6, 10, 13),
                Buffer.of("b3", 6, 9, 3).withAlignment(8),
                Buffer.of("b4", 1, 6, 15),
                Buffer.of("b5", 5, 7, 16)));
    Outcome<DsaSolution> out = solve(new ExactPlanner(), inst);
    assertThat(out.status()).isEqualTo(Status.OPTIMAL);
    assertThat(DsaPlannerContract.assertSolved(inst, out))
        .isEqualTo(32)
        .isEqualTo(DsaFixtures.bruteForcePeak(inst));
    assertThat(out.stats()).containsEntry("universal-buffers", 1.0);
  }

  @Test
  void universalBuffersStayPutWhenSomeBufferIsFixed() {
    List<Buffer> bs = new ArrayList<>(DsaFixtures.fragmentation().instance().buffers());
    bs.add(Buffer.of("U", 0, 5, 3).withFixedOffset(5));
    DsaInstance inst = DsaInstance.of("fixed-universal", bs);
    Outcome<DsaSolution> out = solve(new ExactPlanner(), inst);
    assertThat(out.status()).isEqualTo(Status.OPTIMAL);
    assertThat(DsaPlannerContract.assertSolved(inst, out)).isEqualTo(8);
    assertThat(out.stats()).doesNotContainKey("universal-buffers");
  }

  /**
   * b occupies only its byte 2 during its gap [2,3), d only its bytes 0..2 during [1,2). At time 2,
   * a, b, c, d need 2 + 1 + 2 + 4 = 9 bytes, the max load, and a@0, b@0, d@3, c@7 fits in 9 (a
   * below b's window). The canonical rule breaks ties at one offset by a static rank, and with
   * windows the order of two buffers at one offset matters (b first pushes a to 3: MiniMalloc's
   * effective size), so the search exhausts its space at 9 without this placement. The planner must
   * then neither claim its best peak optimal nor 9 infeasible.
   */
  @Test
  void windowedGapsNeverYieldAProofFromTheSearch() {
    DsaInstance inst =
        DsaInstance.of(
            "window-tie",
            List.of(
                Buffer.of("a", 2, 3, 2),
                new Buffer("b", 1, 4, 3, 1, List.of(new Gap(2, 3, 2, 3)), OptionalLong.empty()),
                Buffer.of("c", 2, 3, 2),
                new Buffer("d", 0, 3, 4, 1, List.of(new Gap(1, 2, 0, 3)), OptionalLong.empty())));
    assertThat(new DsaValidator().isValid(inst, new DsaSolution(new long[] {0, 0, 7, 3}))).isTrue();
    SearchModel md = new SearchModel(inst);
    for (String order : ExactPlanner.DEFAULT_ORDERS) {
      Search s = new Search(md, 9, Budget.unlimited(), new Search.Counter(), new Preorder(order));
      assertThat(s.run(Long.MAX_VALUE))
          .as("search at 9 with %s", order)
          .isEqualTo(Search.NOT_FOUND);
    }
    Outcome<DsaSolution> out = solve(new ExactPlanner(), inst);
    assertThat(out.status()).isEqualTo(Status.FEASIBLE);
    assertThat(out.lowerBound()).hasValue(9);
    assertThat(DsaPlannerContract.assertSolved(inst, out)).isGreaterThan(9);
    Outcome<DsaSolution> bounded = solve(new ExactPlanner(), inst.withCapacity(9));
    assertThat(bounded.status()).isEqualTo(Status.NO_SOLUTION_IN_BUDGET);
    assertThat(bounded.lowerBound()).hasValue(9);
  }

  @Test
  void decideModeStopsAtTheFirstPlacementWithinTheCapacity() {
    ExactPlanner decide =
        new ExactPlanner(ExactPlanner.Options.defaults().withMode(ExactPlanner.Mode.DECIDE));
    DsaInstance inst = fragmentation(1);
    Outcome<DsaSolution> out = solve(decide, inst.withCapacity(6));
    assertThat(DsaPlannerContract.assertSolved(inst.withCapacity(6), out)).isLessThanOrEqualTo(6);
    assertThat(solve(decide, inst.withCapacity(4)).status()).isEqualTo(Status.INFEASIBLE);
  }

  @Test
  void aWarmStartBecomesTheIncumbent() {
    DsaInstance inst = fragmentation(1);
    // the hand-made optimum of the fixture's Javadoc
    long[] optimum = {0, 2, 2, 3, 4, 0, 2};
    ExactPlanner p =
        new ExactPlanner(
            ExactPlanner.Options.defaults()
                .withNodeLimit(1)
                .withWarmStart(
                    (i, ctx) -> Outcome.feasible(new DsaSolution(optimum), OptionalLong.empty())));
    Outcome<DsaSolution> out = solve(p, inst);
    assertThat(DsaPlannerContract.assertSolved(inst, out)).isEqualTo(5);
    assertThat(out.stats()).containsEntry("warm-start-peak", 5.0);
  }

  @Test
  void anInvalidWarmStartIsIgnored() {
    DsaInstance inst = fragmentation(1);
    ExactPlanner p =
        new ExactPlanner(
            ExactPlanner.Options.defaults()
                .withWarmStart(
                    (i, ctx) ->
                        Outcome.feasible(new DsaSolution(new long[7]), OptionalLong.empty())));
    Outcome<DsaSolution> out = solve(p, inst);
    assertThat(out.status()).isEqualTo(Status.OPTIMAL);
    assertThat(out.stats()).doesNotContainKey("warm-start-peak");
  }

  @Test
  void misalignedOrOverflowingFixedOffsetsAreInfeasible() {
    DsaInstance misaligned =
        DsaInstance.of("m", List.of(Buffer.of("a", 0, 1, 4).withAlignment(4).withFixedOffset(2)));
    assertThat(solve(new ExactPlanner(), misaligned).status()).isEqualTo(Status.INFEASIBLE);
    DsaInstance past = DsaInstance.of("p", List.of(Buffer.of("a", 0, 1, 4).withFixedOffset(8)));
    assertThat(solve(new ExactPlanner(), past.withCapacity(10)).status())
        .isEqualTo(Status.INFEASIBLE);
  }

  @Test
  void providerIsRegisteredWithItsParameters() {
    PlannerProvider<DsaInstance, DsaSolution> p = Planners.get("exact", DsaInstance.class);
    assertThat(p).isInstanceOf(ExactPlannerProvider.class);
    assertThat(p.parameters())
        .extracting(io.github.memplan.core.solve.Parameter::name)
        .containsExactly("mode", "orders", "node-limit", "warm-start");
    ExactPlanner planner =
        (ExactPlanner)
            p.create(Map.of("mode", "decide", "orders", "WAT, ZA", "node-limit", "1000"));
    assertThat(planner.options().mode()).isEqualTo(ExactPlanner.Mode.DECIDE);
    assertThat(planner.options().orders()).containsExactly("WAT", "ZA");
    assertThat(planner.options().nodeLimit()).isEqualTo(1000);
    assertThat(((ExactPlanner) p.create(Map.of())).options())
        .isEqualTo(ExactPlanner.Options.defaults());
  }

  @Test
  void providerRejectsBadParameters() {
    PlannerProvider<DsaInstance, DsaSolution> p = new ExactPlannerProvider();
    assertThatThrownBy(() -> p.create(Map.of("mode", "fast")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("minimise or decide");
    assertThatThrownBy(() -> p.create(Map.of("orders", "WAX")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown letter 'X'");
    assertThatThrownBy(() -> p.create(Map.of("node-limit", "-1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("node limit");
    assertThatThrownBy(() -> p.create(Map.of("warm-start", "exact")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("itself");
    assertThatThrownBy(() -> p.create(Map.of("warm-start", "no-such-planner")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown planner 'no-such-planner'");
  }
}
