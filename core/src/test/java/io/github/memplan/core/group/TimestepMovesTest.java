package io.github.memplan.core.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Violation;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Transfer moves on a hand-worked 4-op group: conv(x, w) → c (also a graph output), relu(c) → r,
 * add(r, c) → a, add(a, y) → o. Today's table (nearest assignment, then the pipeline folds the
 * first and last rows in):
 *
 * <pre>
 * row 0: conv | store o (stage 2)
 * row 1: relu | store c (stage 1)
 * row 2: add1 | load y  (stage 1)
 * row 3: add2 | load x, w (stage 0)
 * </pre>
 *
 * c's store may move to row 3 only (add1 in row 2 reads c); y's load to rows 0 and 1. x and w,
 * loaded in the last row for the next iteration (stage 0), may move to any row after conv reads
 * them (rows 1 and 2); o's store, folded into the first row (stage 2), to any row before add2
 * writes it (rows 1 and 2).
 */
class TimestepMovesTest {
  private static final Chip BM1684X = Chips.get("bm1684x");
  private static final SliceRules RULES = GroupOptions.DEFAULT.rules(SliceRules.TODAY);

  static Graph graph() {
    return GroupFixtures.prefetch(true);
  }

  private static GroupCandidate.Built built(Graph g) {
    return (GroupCandidate.Built)
        GroupCandidate.build(
            "moves4", g, g.ops(), BM1684X, ShapeSecs.nh(1, 1), RULES, TimestepMethod.get("today"));
  }

  private static int index(GroupTimesteps t, String id) {
    List<LmemBuffer> bs = t.lmem().buffers();
    for (int i = 0; i < bs.size(); i++) {
      if (bs.get(i).id().equals(id)) {
        return i;
      }
    }
    throw new AssertionError(id);
  }

  private static String illegal(GroupTimesteps t, TransferMove... moves) {
    TimestepMoves.Result r = TimestepMoves.apply(t, List.of(moves));
    assertThat(r).isInstanceOf(TimestepMoves.Illegal.class);
    return ((TimestepMoves.Illegal) r).reason();
  }

  @Test
  void theTableIsAsHandWorked() {
    GroupTimesteps t = built(graph()).timesteps();
    List<String> ids = t.lmem().buffers().stream().map(LmemBuffer::id).toList();
    assertThat(t.lmem().timesteps()).hasSize(4);
    assertThat(t.lmem().timesteps().get(0).gdma()).containsExactly(index(t, "add2"));
    assertThat(t.lmem().timesteps().get(1).gdma()).containsExactly(index(t, "conv"));
    assertThat(t.lmem().timesteps().get(2).gdma()).containsExactly(index(t, "y"));
    assertThat(t.lmem().timesteps().get(3).gdma()).containsExactly(index(t, "x"), index(t, "w"));
    assertThat(TimestepMoves.legalRows(t, index(t, "conv"))).containsExactly(3);
    assertThat(TimestepMoves.legalRows(t, index(t, "y"))).containsExactly(0, 1);
    for (String folded : List.of("x", "w", "add2")) {
      assertThat(TimestepMoves.legalRows(t, index(t, folded))).as(folded).containsExactly(1, 2);
    }
    for (String fixed : List.of("relu", "add1")) {
      assertThat(TimestepMoves.legalRows(t, index(t, fixed))).as(fixed).isEmpty();
    }
    assertThat(ids).contains("x", "y", "w", "conv", "relu", "add1", "add2");
  }

  @Test
  void legalMovesLengthenTheLifetimesByTheRuleOfTheUnmovedTable() {
    GroupTimesteps t = built(graph()).timesteps();
    int y = index(t, "y");
    int c = index(t, "conv");
    // unmoved: y loaded in row 2, read in row 3; conv computed in row 0, read in row 2, stored in 1
    assertThat(t.lmem().buffers().get(y).start()).isEqualTo(2);
    assertThat(t.lmem().buffers().get(c).end()).isEqualTo(2);
    List<TransferMove> moves =
        c < y
            ? List.of(new TransferMove(c, 3), new TransferMove(y, 0))
            : List.of(new TransferMove(y, 0), new TransferMove(c, 3));
    TimestepMoves.Result r = TimestepMoves.apply(t, moves);
    assertThat(r).isInstanceOf(TimestepMoves.Moved.class);
    GroupTimesteps m = ((TimestepMoves.Moved) r).table();
    assertThat(m.lmem().timesteps().get(0).gdma()).containsExactly(index(t, "add2"), y);
    assertThat(m.lmem().timesteps().get(1).gdma()).isEmpty();
    assertThat(m.lmem().timesteps().get(2).gdma()).isEmpty();
    assertThat(m.lmem().timesteps().get(3).gdma()).containsExactly(index(t, "x"), index(t, "w"), c);
    LmemBuffer my = m.lmem().buffers().get(y);
    assertThat(List.of(my.start(), my.end())).containsExactly(0, 3);
    LmemBuffer mc = m.lmem().buffers().get(c);
    assertThat(List.of(mc.start(), mc.end())).containsExactly(0, 3);
    // the buffers no move touches keep their lifetimes
    for (int b = 0; b < t.lmem().buffers().size(); b++) {
      if (b != y && b != c) {
        assertThat(m.lmem().buffers().get(b)).isEqualTo(t.lmem().buffers().get(b));
      }
    }
    assertThat(m.tensors()).isEqualTo(t.tensors());
    assertThat(m.stages()).isEqualTo(t.stages());
  }

  @Test
  void aLoadMovedEarlierMayMoveBackLaterAndFoldedTransfersKeepTheirStage() {
    GroupTimesteps t = built(graph()).timesteps();
    int y = index(t, "y");
    int x = index(t, "x");
    GroupTimesteps early =
        ((TimestepMoves.Moved) TimestepMoves.apply(t, List.of(new TransferMove(y, 0)))).table();
    // from row 0, y's load may move later again, up to the row before add2 reads it (row 3)
    assertThat(TimestepMoves.legalRows(early, y)).containsExactly(1, 2);
    GroupTimesteps back =
        ((TimestepMoves.Moved) TimestepMoves.apply(early, List.of(new TransferMove(y, 2)))).table();
    assertThat(back.lmem().buffers().get(y)).isEqualTo(t.lmem().buffers().get(y));
    // x, loaded for the next iteration in row 3, moved to row 1: it lives from row 1 round to row 0
    GroupTimesteps moved =
        ((TimestepMoves.Moved) TimestepMoves.apply(t, List.of(new TransferMove(x, 1)))).table();
    LmemBuffer mx = moved.lmem().buffers().get(x);
    assertThat(List.of(mx.start(), mx.end())).containsExactly(1, 0);
    assertThat(moved.stages().get(x)).isZero();
  }

  @Test
  void illegalMovesAreRejectedNamingTheBuffer() {
    GroupTimesteps t = built(graph()).timesteps();
    // a store into the row whose op reads it (add1 reads conv in row 2)
    assertThat(illegal(t, new TransferMove(index(t, "conv"), 2)))
        .contains("buffer 'conv'", "store of stage 1 in row 1 cannot move to row 2");
    // a store into the row whose op writes it (and earlier)
    assertThat(illegal(t, new TransferMove(index(t, "conv"), 0))).contains("buffer 'conv'");
    // a load after its use (add2 reads y in row 3)
    assertThat(illegal(t, new TransferMove(index(t, "y"), 3)))
        .contains("buffer 'y'", "load of stage 1 in row 2 cannot move to row 3");
    // a folded load not into the row that reads it, a folded store not into the row that writes it
    assertThat(illegal(t, new TransferMove(index(t, "x"), 0)))
        .contains("buffer 'x'", "stage 0", "after the last row whose TIU op touches it");
    assertThat(illegal(t, new TransferMove(index(t, "add2"), 3)))
        .contains("buffer 'add2'", "stage 2", "before the first row whose TIU op touches it");
    // a buffer the GDMA never moves
    assertThat(illegal(t, new TransferMove(index(t, "relu"), 0)))
        .contains("buffer 'relu'", "no GDMA transfer");
    // two moves of one buffer
    int y = index(t, "y");
    assertThat(illegal(t, new TransferMove(y, 0), new TransferMove(y, 1)))
        .contains("two moves of one buffer");
  }

  @Test
  void theValidatorAppliesTheRecordedMovesAndRejectsIllegalOrUnappliedOnes() {
    Graph g = graph();
    GroupProblem p = GroupProblem.of(g, BM1684X, GroupOptions.DEFAULT);
    GroupCandidate.Built b = built(g);
    GroupTimesteps base = b.timesteps();
    int y = index(base, "y");
    List<TransferMove> moves = List.of(new TransferMove(y, 0));
    GroupTimesteps moved = ((TimestepMoves.Moved) TimestepMoves.apply(base, moves)).table();
    LmemSolution sol =
        new StackLmemPlanner().solve(moved.lmem(), SolveContext.unlimited()).solution();
    Group ok = new Group(0, 3, ShapeSecs.nh(1, 1), b.slices().slices(), moved, sol, moves);
    assertThat(validate(p, ok)).isEmpty();

    Group unapplied = new Group(0, 3, ok.secs(), ok.slices(), base, sol, moves);
    assertThat(validate(p, unapplied))
        .singleElement()
        .satisfies(v -> assertThat(v.rule()).isEqualTo("timesteps"))
        .satisfies(v -> assertThat(v.message()).contains("group 0 [0..3]", "differ"));

    Group late =
        new Group(0, 3, ok.secs(), ok.slices(), moved, sol, List.of(new TransferMove(y, 3)));
    assertThat(validate(p, late))
        .singleElement()
        .satisfies(v -> assertThat(v.rule()).isEqualTo("timesteps"))
        .satisfies(
            v -> assertThat(v.message()).contains("group 0 [0..3]", "illegal", "buffer 'y'"));

    Group unmovedButRecordedMoved = new Group(0, 3, ok.secs(), ok.slices(), moved, sol);
    assertThat(validate(p, unmovedButRecordedMoved))
        .singleElement()
        .satisfies(v -> assertThat(v.rule()).isEqualTo("timesteps"));
  }

  private static List<Violation> validate(GroupProblem p, Group grp) {
    return new GroupingValidator()
        .validate(p, new Grouping(Grouping.names(p.order()), RULES, "today", List.of(grp)));
  }

  /**
   * {@link TimestepMoves#lives} gives every buffer, at every row it may move to, the life {@link
   * TimestepMoves#apply} gives it with that one move (folded transfers wrap: x and w loaded in rows
   * 1 or 2 for the next iteration live on to conv in row 0); the batch {@link
   * TimestepMoves#legalRows(GroupTimesteps)} agrees with the one-buffer form.
   */
  @Test
  void livesAndLegalRowsOfEveryBufferAgreeWithApplyingEachMove() {
    for (Graph g : List.of(graph(), GroupFixtures.prefetch(false))) {
      GroupTimesteps t = built(g).timesteps();
      TimestepMoves.Lives lives = TimestepMoves.lives(t);
      List<List<Integer>> legal = TimestepMoves.legalRows(t);
      int checked = 0;
      for (int b = 0; b < t.lmem().buffers().size(); b++) {
        assertThat(legal.get(b)).isEqualTo(TimestepMoves.legalRows(t, b));
        for (int r : legal.get(b)) {
          GroupTimesteps moved =
              ((TimestepMoves.Moved) TimestepMoves.apply(t, List.of(new TransferMove(b, r))))
                  .table();
          assertThat(lives.of(b, r)).isEqualTo(moved.lmem().buffers().get(b));
          checked++;
        }
      }
      assertThat(checked).isPositive();
    }
    GroupTimesteps t = built(graph()).timesteps();
    LmemBuffer x = TimestepMoves.lives(t).of(index(t, "x"), 1);
    assertThat(x.start()).isEqualTo(1);
    assertThat(x.end()).isZero();
    assertThat(x.wraps()).isTrue();
  }
}
