package io.github.memplan.solvers.dsa.timefold;

import ai.timefold.solver.core.api.domain.variable.ListVariableListener;
import ai.timefold.solver.core.api.score.director.ScoreDirector;
import java.util.List;

/**
 * Keeps every {@link Block}'s offset equal to the decode of the placement order, and the {@link
 * Placement}'s peak and count at the peak equal to that decode's, incrementally: the blocks before
 * the first one whose position changed keep their offsets, and after it a block is placed again
 * only if one of its time-overlap neighbours (precomputed, see {@link Decoder}) changed offset in
 * this pass or crossed it in the order; otherwise its inputs, hence its offset, are unchanged. A
 * notification that spans the whole list (which is also how Timefold forces every listener, as in
 * FULL_ASSERT's staleness check) decodes from scratch. Only values that actually change are
 * reported to the score director. The peak is recomputed by one pass over the order (n comparisons,
 * cheap next to the decode), which keeps the score's work per move constant.
 *
 * <p>Timefold 1.32 deprecates list variable listeners in favour of declarative suppliers ({@code
 * ShadowVariable#supplierName}, a preview feature). A supplier computes one element from declared
 * source paths; here a block's offset depends on whichever neighbours precede it in the current
 * order, a dependency that changes with every move and would form cycles in a static source graph,
 * whereas the listener sees the changed list and can decide itself what to place again. Hence the
 * deprecated API, until the declarative one can express it.
 */
@SuppressWarnings("removal")
public class DecodeListener implements ListVariableListener<DsaPlan, Object, Block> {
  private final Decoder.Scratch scratch = new Decoder.Scratch();

  // per buffer, valid when equal to the current epoch (one epoch per decode pass)
  private int epoch;
  private int[] stamp; // the buffer's position changed in this pass; previous one in prevPos
  private int[] prevPos;
  private int[] changed; // the buffer's offset changed in this pass

  @Override
  public void beforeListVariableChanged(
      ScoreDirector<DsaPlan> scoreDirector, Object entity, int fromIndex, int toIndex) {
    // the decode happens after the change
  }

  @Override
  public void afterListVariableChanged(
      ScoreDirector<DsaPlan> scoreDirector, Object entity, int fromIndex, int toIndex) {
    Placement placement = (Placement) entity;
    // the whole list: also how Timefold forces every listener (FULL_ASSERT's staleness check), so
    // decode from scratch rather than trust the previous state
    decode(scoreDirector, placement, fromIndex == 0 && toIndex == placement.getOrder().size());
  }

  @Override
  public void afterListVariableElementUnassigned(
      ScoreDirector<DsaPlan> scoreDirector, Block element) {
    element.position = Integer.MAX_VALUE;
    if (element.getOffset() != null) {
      scoreDirector.beforeVariableChanged(element, "offset");
      element.setOffset(null);
      scoreDirector.afterVariableChanged(element, "offset");
    }
  }

  @Override
  public void beforeEntityAdded(ScoreDirector<DsaPlan> scoreDirector, Object entity) {}

  @Override
  public void afterEntityAdded(ScoreDirector<DsaPlan> scoreDirector, Object entity) {
    // Timefold 1.32 resets the working solution by calling this for every entity, blocks included
    if (entity instanceof Placement placement) {
      decode(scoreDirector, placement, true);
    }
  }

  @Override
  public void beforeEntityRemoved(ScoreDirector<DsaPlan> scoreDirector, Object entity) {}

  @Override
  public void afterEntityRemoved(ScoreDirector<DsaPlan> scoreDirector, Object entity) {}

  /**
   * Re-decodes the order after a change. Positions are refreshed over the whole order first (a move
   * may arrive as several notifications; every pass sees the final order), remembering the previous
   * position of each block that moved. Then, from the first block whose position changed, a block
   * is placed again only if it has to be: when {@code full}, or when one of its time-overlap
   * neighbours changed offset in this pass or crossed it in the order (so that the set of buffers
   * placed before it changed). Otherwise its inputs are those of the previous decode and so is its
   * offset. Blocks before the first change keep their offsets and positions.
   */
  private void decode(ScoreDirector<DsaPlan> scoreDirector, Placement placement, boolean full) {
    List<Block> order = placement.getOrder();
    DsaPlan plan = scoreDirector.getWorkingSolution();
    Decoder decoder = plan.decoder();
    List<Block> blocks = plan.getBlocks();
    int size = order.size();
    if (stamp == null || stamp.length != decoder.n) {
      stamp = new int[decoder.n];
      changed = new int[decoder.n];
      prevPos = new int[decoder.n];
      epoch = 0;
    }
    epoch++;
    int first = full ? 0 : size;
    for (int p = 0; p < size; p++) {
      Block b = order.get(p);
      if (b.position != p) {
        prevPos[b.getIndex()] = b.position;
        stamp[b.getIndex()] = epoch;
        b.position = p;
        first = Math.min(first, p);
      } else if (b.getOffset() == null) {
        first = Math.min(first, p); // never decoded (a solution set up from outside)
      }
    }
    OrderDecoding.State state =
        new OrderDecoding.State() {
          @Override
          public int position(int buffer) {
            return blocks.get(buffer).position;
          }

          @Override
          public long address(int buffer) {
            return blocks.get(buffer).getOffset();
          }
        };
    for (int p = first; p < size; p++) {
      Block b = order.get(p);
      int x = b.getIndex();
      Long old = b.getOffset();
      if (!full && old != null && !affected(decoder, blocks, x, p)) {
        continue;
      }
      long o = decoder.place(x, p, state, scratch);
      if (old == null || old != o) {
        changed[x] = epoch;
        scoreDirector.beforeVariableChanged(b, "offset");
        b.setOffset(o);
        scoreDirector.afterVariableChanged(b, "offset");
      }
    }
    long peak = 0;
    int atPeak = 0;
    for (int p = 0; p < size; p++) {
      Block b = order.get(p);
      long end = b.end();
      if (end > peak) {
        peak = end;
        atPeak = 0;
      }
      if (end == peak && b.getSize() > 0) {
        atPeak++;
      }
    }
    Long oldPeak = placement.getPeak();
    if (oldPeak == null || oldPeak != peak) {
      scoreDirector.beforeVariableChanged(placement, "peak");
      placement.setPeak(peak);
      scoreDirector.afterVariableChanged(placement, "peak");
    }
    Integer oldAt = placement.getAtPeak();
    if (oldAt == null || oldAt != atPeak) {
      scoreDirector.beforeVariableChanged(placement, "atPeak");
      placement.setAtPeak(atPeak);
      scoreDirector.afterVariableChanged(placement, "atPeak");
    }
  }

  /** Whether a neighbour of {@code x} (at {@code p}) changed offset or crossed it in the order. */
  private boolean affected(Decoder decoder, List<Block> blocks, int x, int p) {
    boolean xMoved = stamp[x] == epoch;
    int xBefore = xMoved ? prevPos[x] : p;
    for (int y : decoder.other[x]) {
      if (changed[y] == epoch) {
        return true;
      }
      boolean yMoved = stamp[y] == epoch;
      if (xMoved || yMoved) {
        int yNow = blocks.get(y).position;
        int yBefore = yMoved ? prevPos[y] : yNow;
        if ((yBefore < xBefore) != (yNow < p)) {
          return true;
        }
      }
    }
    return false;
  }
}
