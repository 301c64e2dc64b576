package io.github.memplan.solvers.group.timefold;

import io.github.memplan.core.group.CostModel;
import io.github.memplan.core.group.Group;
import io.github.memplan.core.group.SliceRules;
import io.github.memplan.solvers.group.GroupEvaluator;
import io.github.memplan.solvers.group.LmemOracle;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The {@link RangeOracle} of a solve: the shared {@link GroupEvaluator} of {@code solvers.group}.
 */
final class EvaluatorOracle implements RangeOracle {
  private final GroupEvaluator ev;

  EvaluatorOracle(GroupEvaluator ev) {
    this.ev = ev;
  }

  /** A factory of evaluators with this LMEM oracle, cost model and cap on the loops of a secs. */
  static GroupTimefoldPlanner.OracleFactory factory(
      LmemOracle lmem, CostModel costModel, int maxIterations) {
    return (p, ctx) ->
        new EvaluatorOracle(new GroupEvaluator(p, ctx, lmem, costModel, maxIterations));
  }

  @Override
  public int size() {
    return ev.problem().order().size();
  }

  @Override
  public List<int[]> baseGroups() {
    return ev.baseGroups();
  }

  @Override
  public long globalCost(int op) {
    return ev.rangeCost(op, op);
  }

  @Override
  public OptionalLong groupCost(int first, int last) {
    return ev.best(first, last)
        .map(e -> OptionalLong.of(e.objective()))
        .orElse(OptionalLong.empty());
  }

  @Override
  public Optional<Group> group(int first, int last) {
    return ev.best(first, last).map(GroupEvaluator.Evaluated::group);
  }

  @Override
  public Group withMoves(Group g) {
    return ev.withMoves(g);
  }

  @Override
  public SliceRules rules() {
    return ev.rules();
  }

  @Override
  public String timestepMethod() {
    return ev.timestepMethod();
  }

  @Override
  public boolean outOfBudget() {
    return ev.outOfBudget();
  }

  @Override
  public Map<String, Long> stats() {
    return ev.stats();
  }
}
