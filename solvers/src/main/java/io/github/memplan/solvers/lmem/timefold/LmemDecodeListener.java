package io.github.memplan.solvers.lmem.timefold;

import ai.timefold.solver.core.api.domain.variable.ListVariableListener;
import ai.timefold.solver.core.api.score.director.ScoreDirector;
import io.github.memplan.solvers.dsa.timefold.OrderDecoding;
import java.util.List;

/**
 * Keeps every {@link Slot}'s address equal to the decode of the order ({@link LmemDecoder}) and the
 * {@link Sequence}'s peak equal to that decode's, incrementally. Slots before the first one whose
 * position changed keep their addresses; after it, a slot is placed again only if one of its
 * neighbours (the buffers that can block its bytes or its banks, {@link LmemDecoder#neighbours})
 * changed address in this pass or crossed it in the order, since nothing else enters its placement.
 * A notification spanning the whole list (also how Timefold forces every listener in FULL_ASSERT's
 * staleness check) decodes from scratch. Only values that change are reported to the score
 * director.
 *
 * <p>A list variable listener (deprecated in Timefold 1.32 in favour of declarative suppliers)
 * because an address depends on whichever neighbours precede the slot in the current order, a
 * dependency that changes with every move; the same choice as the DSA planner's {@code
 * DecodeListener}.
 */
@SuppressWarnings("removal")
public class LmemDecodeListener implements ListVariableListener<LmemPlan, Object, Slot> {
  private final LmemDecoder.Scratch scratch = new LmemDecoder.Scratch();

  // per buffer, valid when equal to the current pass
  private int pass;
  private int[] moved; // its position changed in this pass; the previous one is in before
  private int[] before;
  private int[] changed; // its address changed in this pass

  @Override
  public void beforeListVariableChanged(
      ScoreDirector<LmemPlan> scoreDirector, Object entity, int fromIndex, int toIndex) {}

  @Override
  public void afterListVariableChanged(
      ScoreDirector<LmemPlan> scoreDirector, Object entity, int fromIndex, int toIndex) {
    Sequence sequence = (Sequence) entity;
    update(scoreDirector, sequence, fromIndex == 0 && toIndex == sequence.getOrder().size());
  }

  @Override
  public void afterListVariableElementUnassigned(
      ScoreDirector<LmemPlan> scoreDirector, Slot element) {
    element.position = Integer.MAX_VALUE;
    if (element.getAddress() != null) {
      scoreDirector.beforeVariableChanged(element, "address");
      element.setAddress(null);
      scoreDirector.afterVariableChanged(element, "address");
    }
  }

  @Override
  public void beforeEntityAdded(ScoreDirector<LmemPlan> scoreDirector, Object entity) {}

  @Override
  public void afterEntityAdded(ScoreDirector<LmemPlan> scoreDirector, Object entity) {
    if (entity instanceof Sequence sequence) {
      update(scoreDirector, sequence, true);
    }
  }

  @Override
  public void beforeEntityRemoved(ScoreDirector<LmemPlan> scoreDirector, Object entity) {}

  @Override
  public void afterEntityRemoved(ScoreDirector<LmemPlan> scoreDirector, Object entity) {}

  private void update(ScoreDirector<LmemPlan> scoreDirector, Sequence sequence, boolean full) {
    List<Slot> order = sequence.getOrder();
    LmemPlan plan = scoreDirector.getWorkingSolution();
    LmemDecoder decoder = plan.decoder();
    List<Slot> slots = plan.getSlots();
    if (moved == null || moved.length != decoder.n) {
      moved = new int[decoder.n];
      before = new int[decoder.n];
      changed = new int[decoder.n];
      pass = 0;
    }
    pass++;
    int size = order.size();
    int first = full ? 0 : size;
    for (int p = 0; p < size; p++) {
      Slot s = order.get(p);
      if (s.position != p) {
        before[s.getIndex()] = s.position;
        moved[s.getIndex()] = pass;
        s.position = p;
        first = Math.min(first, p);
      } else if (s.getAddress() == null) {
        first = Math.min(first, p);
      }
    }
    OrderDecoding.State state =
        new OrderDecoding.State() {
          @Override
          public int position(int buffer) {
            return slots.get(buffer).position;
          }

          @Override
          public long address(int buffer) {
            return slots.get(buffer).getAddress();
          }
        };
    for (int p = first; p < size; p++) {
      Slot s = order.get(p);
      int x = s.getIndex();
      Long old = s.getAddress();
      if (!full && old != null && !affected(decoder, slots, x, p)) {
        continue;
      }
      long a = decoder.place(x, p, state, scratch);
      if (old == null || old != a) {
        changed[x] = pass;
        scoreDirector.beforeVariableChanged(s, "address");
        s.setAddress(a);
        scoreDirector.afterVariableChanged(s, "address");
      }
    }
    long peak = 0;
    for (Slot s : order) {
      peak = Math.max(peak, s.end());
    }
    Long oldPeak = sequence.getPeak();
    if (oldPeak == null || oldPeak != peak) {
      scoreDirector.beforeVariableChanged(sequence, "peak");
      sequence.setPeak(peak);
      scoreDirector.afterVariableChanged(sequence, "peak");
    }
  }

  /** Whether a neighbour of {@code x} (now at {@code p}) changed address or crossed it. */
  private boolean affected(LmemDecoder decoder, List<Slot> slots, int x, int p) {
    boolean xMoved = moved[x] == pass;
    int xBefore = xMoved ? before[x] : p;
    for (int y : decoder.neighbours[x]) {
      if (changed[y] == pass) {
        return true;
      }
      boolean yMoved = moved[y] == pass;
      if (xMoved || yMoved) {
        int yNow = slots.get(y).position;
        int yBefore = yMoved ? before[y] : yNow;
        if ((yBefore < xBefore) != (yNow < p)) {
          return true;
        }
      }
    }
    return false;
  }
}
