package io.github.memplan.solvers.timefold;

import ai.timefold.solver.core.api.domain.variable.ListVariableListener;
import ai.timefold.solver.core.api.score.director.ScoreDirector;
import java.util.List;

/**
 * Keeps every {@link Block}'s offset equal to the decode of the placement order, and the {@link
 * Placement}'s peak and count at the peak equal to that decode's, incrementally: a change of the
 * order from index {@code k} on leaves the offsets of the first {@code k} blocks as they are and
 * re-decodes only from {@code k} to the end (each block reads only its precomputed time-overlap
 * neighbours, see {@link Decoder}). Only values that actually change are reported to the score
 * director. The peak is recomputed by one pass over the order (n comparisons, cheap next to the
 * decode), which keeps the score's work per move constant.
 *
 * <p>Timefold 1.32 deprecates list variable listeners in favour of declarative suppliers ({@code
 * ShadowVariable#supplierName}, a preview feature). A supplier computes one element from declared
 * source paths; here a block's offset depends on whichever neighbours precede it in the current
 * order, a dependency that changes with every move and would form cycles in a static source graph,
 * and the listener is told the changed index range, which is exactly what the incremental decode
 * needs. Hence the deprecated API, until the declarative one can express it.
 */
@SuppressWarnings("removal")
public class DecodeListener implements ListVariableListener<DsaPlan, Object, Block> {
  private final Decoder.Scratch scratch = new Decoder.Scratch();

  @Override
  public void beforeListVariableChanged(
      ScoreDirector<DsaPlan> scoreDirector, Object entity, int fromIndex, int toIndex) {
    // the decode happens after the change
  }

  @Override
  public void afterListVariableChanged(
      ScoreDirector<DsaPlan> scoreDirector, Object entity, int fromIndex, int toIndex) {
    decodeFrom(scoreDirector, (Placement) entity, fromIndex);
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
      decodeFrom(scoreDirector, placement, 0);
    }
  }

  @Override
  public void beforeEntityRemoved(ScoreDirector<DsaPlan> scoreDirector, Object entity) {}

  @Override
  public void afterEntityRemoved(ScoreDirector<DsaPlan> scoreDirector, Object entity) {}

  private void decodeFrom(ScoreDirector<DsaPlan> scoreDirector, Placement placement, int from) {
    List<Block> order = placement.getOrder();
    DsaPlan plan = scoreDirector.getWorkingSolution();
    Decoder decoder = plan.decoder();
    List<Block> blocks = plan.getBlocks();
    int size = order.size();
    // positions first: a block that moved later must not look earlier while the rest is decoded
    for (int p = from; p < size; p++) {
      order.get(p).position = p;
    }
    Decoder.State state =
        new Decoder.State() {
          @Override
          public int position(int buffer) {
            return blocks.get(buffer).position;
          }

          @Override
          public long offset(int buffer) {
            return blocks.get(buffer).getOffset();
          }
        };
    for (int p = from; p < size; p++) {
      Block b = order.get(p);
      long o = decoder.place(b.getIndex(), p, state, scratch);
      Long old = b.getOffset();
      if (old == null || old != o) {
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
}
