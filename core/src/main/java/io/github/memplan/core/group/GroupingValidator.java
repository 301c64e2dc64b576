package io.github.memplan.core.group;

import io.github.memplan.core.ir.Op;
import io.github.memplan.core.lmem.LmemValidator;
import io.github.memplan.core.solve.Validator;
import io.github.memplan.core.solve.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The oracle of the layer-grouping problem: re-derives every group from scratch and checks it
 * ({@code reference/tpu-mlir.md} §2.5's {@code is_layer_group_valid}, minus the search).
 *
 * <ul>
 *   <li>{@code order}: the grouping's op order is the problem's;
 *   <li>{@code range}: groups are sorted, disjoint, inside the order, of two ops or more;
 *   <li>{@code groupable}: every op of a group can join a group on the chip under the grouping's
 *       rules ({@link OpSemantics#whyGlobal(io.github.memplan.core.ir.Graph, Op,
 *       io.github.memplan.core.chip.Chip, SliceRules)}: without the Reshape local rule a Reshape
 *       stays global);
 *   <li>{@code slicing}: the grouping's rules honour the problem's h/2 option ({@link
 *       GroupOptions#admits}: forced on or off, or by default as the rules' era has it); backward
 *       slicing under the group's secs and the grouping's rules (with their group types and
 *       margins, which {@link Pieces} may switch) succeeds and gives the recorded slices; under
 *       rules that bound secs ({@link SliceRules#boundsSecs}: today's, not v0's) the secs lie
 *       within {@code get_group_max_secs} and split W only as {@code can_split_w} allows ({@link
 *       ShapeSecsBounds#whyOutOfBounds});
 *   <li>{@code timesteps}: the grouping's {@link TimestepMethod} (a variant with {@link Pieces}
 *       switched off when its id names one) rebuilds the table, the group's recorded transfer moves
 *       are legal and applied ({@link TimestepMoves}), and the result is the recorded table and
 *       LMEM instance exactly;
 *   <li>{@code lmem}: the LMEM addresses pass {@link LmemValidator}.
 * </ul>
 *
 * Messages name the group ({@code group 3 [12..17]}) and the op at fault.
 */
public final class GroupingValidator implements Validator<GroupProblem, Grouping> {
  private final LmemValidator lmem = new LmemValidator();

  @Override
  public List<Violation> validate(GroupProblem p, Grouping g) {
    List<Violation> out = new ArrayList<>();
    if (!g.order().equals(Grouping.names(p.order()))) {
      out.add(new Violation("order", p.name() + ": the grouping's op order is not the problem's"));
      return out;
    }
    if (!p.options().admits(g.rules())) {
      out.add(
          new Violation(
              "slicing",
              p.name()
                  + ": grouping sliced with h/2 rule "
                  + (g.rules().h2Rule() ? "on" : "off")
                  + ", problem asks "
                  + p.options().h2Rule()
                  + (p.options().h2Rule() == GroupOptions.H2Rule.ERA
                      ? " (" + (g.rules().eraH2Rule() ? "on" : "off") + " for these rules)"
                      : "")));
    }
    TimestepMethod method;
    try {
      method = TimestepMethod.get(g.timestepMethod());
    } catch (IllegalArgumentException e) {
      out.add(new Violation("timesteps", p.name() + ": " + e.getMessage()));
      return out;
    }
    int prevLast = -1;
    for (int k = 0; k < g.groups().size(); k++) {
      Group grp = g.groups().get(k);
      String name = "group " + k + " [" + grp.first() + ".." + grp.last() + "]";
      if (grp.first() <= prevLast || grp.last() >= g.order().size()) {
        out.add(
            new Violation(
                "range", p.name() + ": " + name + " overlaps, is unsorted or runs past the order"));
        continue;
      }
      prevLast = grp.last();
      List<Op> ops = g.ops(p.graph(), grp);
      boolean capable = true;
      for (Op op : ops) {
        Optional<String> why = OpSemantics.whyGlobal(p.graph(), op, p.chip(), g.rules());
        if (why.isPresent()) {
          out.add(
              new Violation(
                  "groupable", p.name() + ": " + name + ": op " + op.label() + ": " + why.get()));
          capable = false;
        }
      }
      if (!capable) {
        continue;
      }
      Optional<String> outside =
          ShapeSecsBounds.whyOutOfBounds(p.graph(), ops, p.chip(), grp.secs(), g.rules());
      if (outside.isPresent()) {
        out.add(
            new Violation(
                "slicing", p.name() + ": " + name + " " + grp.secs() + ": " + outside.get()));
        continue;
      }
      GroupCandidate c =
          GroupCandidate.build(
              grp.timesteps().lmem().name(),
              p.graph(),
              ops,
              p.chip(),
              grp.secs(),
              g.rules(),
              method);
      if (c instanceof GroupCandidate.Rejected r) {
        out.add(
            new Violation(
                "slicing",
                p.name() + ": " + name + " " + grp.secs() + ": " + r.failure().reason()));
        continue;
      }
      GroupCandidate.Built b = (GroupCandidate.Built) c;
      if (!b.slices().slices().equals(grp.slices())) {
        out.add(
            new Violation(
                "slicing",
                p.name() + ": " + name + ": recorded slices differ from the re-derived ones"));
      }
      GroupTimesteps expected = b.timesteps();
      if (!grp.moves().isEmpty()) {
        TimestepMoves.Result moved = TimestepMoves.apply(expected, grp.moves());
        if (moved instanceof TimestepMoves.Illegal illegal) {
          out.add(
              new Violation(
                  "timesteps",
                  p.name() + ": " + name + ": illegal transfer move: " + illegal.reason()));
          continue;
        }
        expected = ((TimestepMoves.Moved) moved).table();
      }
      if (!expected.equals(grp.timesteps())) {
        out.add(
            new Violation(
                "timesteps",
                p.name()
                    + ": "
                    + name
                    + ": recorded timestep table or LMEM buffers differ from the re-derived ones"));
        continue;
      }
      for (Violation v : lmem.validate(grp.timesteps().lmem(), grp.lmem())) {
        out.add(new Violation("lmem", p.name() + ": " + name + ": " + v));
      }
    }
    return out;
  }
}
