package io.github.memplan.datasets.dsa;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Role;
import io.github.memplan.core.ir.Schedule;
import io.github.memplan.core.ir.Tensor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The allocation trace of an inference server running many requests of several zoo models at once,
 * derived from the models' graphs; seeded.
 *
 * <p>What it reproduces: each model's weights stay resident for the whole trace; each request
 * allocates its input when it arrives and its activations with their true inference lifetimes (from
 * the op that defines a tensor to its last reader; shape-only ops are views of their source; the
 * outputs live until the request completes). Up to {@value #CONCURRENCY} requests run at a time and
 * the server interleaves their ops one at a time, round robin, as an executor sharing one device
 * does; so the buffers of different requests and models overlap in time with unrelated sizes.
 *
 * <p>A judgement, not a fit to a measured workload: at every timestep a new request arrives with
 * probability {@value #ARRIVAL} while fewer than {@value #CONCURRENCY} run (and at once when none
 * runs), its model drawn uniformly from the mix and its batch size (dynamic batching) from 1, 2, 4,
 * 8 with probabilities 40%, 30%, 20%, 10%; activation sizes are the batch-1 graph's times the
 * batch. The trace is cut after exactly {@code buffers} buffers in order of allocation (weights
 * first); running requests are completed so that every buffer keeps its true lifetime. Buffer ids
 * are {@code 0..n-1} in that order. The same (models, buffers, seed, granule) give the same
 * instance.
 */
public final class ServingTrace {
  /** Requests running at once, at most. */
  static final int CONCURRENCY = 8;

  /** Probability of an arrival per timestep while below {@link #CONCURRENCY}. */
  static final double ARRIVAL = 0.02;

  private ServingTrace() {}

  /** One request's buffers relative to its own ops: op {@code i} is step {@code i + 1}. */
  private record Forward(int ops, List<int[]> lives, List<Long> sizes, List<Long> weights) {
    static Forward of(Graph g) {
      List<Op> order = Schedule.topological(g);
      int f = order.size();
      Map<String, String> root = new HashMap<>();
      Map<String, int[]> life = new LinkedHashMap<>();
      for (String in : g.inputs()) {
        life.put(in, new int[] {0, 0});
      }
      List<Long> weights = new ArrayList<>();
      java.util.Set<String> seen = new java.util.HashSet<>();
      for (int i = 0; i < f; i++) {
        Op op = order.get(i);
        int t = 1 + i;
        for (String in : op.inputs()) {
          Tensor tensor = g.tensor(in);
          if (tensor.role().isStored()) {
            if (seen.add(in)) {
              weights.add(Math.max(1, tensor.bytes()));
            }
            continue;
          }
          int[] l = life.get(root.getOrDefault(in, in));
          if (l != null) {
            l[1] = Math.max(l[1], t);
          }
        }
        boolean view = op.kind().category() == OpKind.Category.SHAPE && !op.inputs().isEmpty();
        for (String o : op.outputs()) {
          String src = view ? op.inputs().get(0) : null;
          if (src != null && life.containsKey(root.getOrDefault(src, src))) {
            root.put(o, root.getOrDefault(src, src));
          } else {
            life.put(o, new int[] {t, t});
          }
        }
      }
      for (String o : g.outputs()) {
        int[] l = life.get(root.getOrDefault(o, o));
        if (l != null) {
          l[1] = f; // read back when the request completes
        }
      }
      List<int[]> lives = new ArrayList<>();
      List<Long> sizes = new ArrayList<>();
      for (Map.Entry<String, int[]> e : life.entrySet()) {
        Tensor t = g.tensor(e.getKey());
        if (t.role() == Role.INPUT || t.role() == Role.ACTIVATION || t.role() == Role.OUTPUT) {
          lives.add(e.getValue());
          sizes.add(Math.max(1, t.bytes()));
        }
      }
      return new Forward(f, lives, sizes, weights);
    }
  }

  private record Alloc(int lower, int upper, long size, long order) {}

  /**
   * A trace of {@code buffers} buffers of requests to {@code models}, sizes rounded up to {@code
   * granule} bytes, from {@code seed}.
   */
  public static DsaInstance generate(List<Graph> models, int buffers, long seed, long granule) {
    if (buffers < 1) {
      throw new IllegalArgumentException("generator: buffers must be at least 1, not " + buffers);
    }
    if (granule < 1) {
      throw new IllegalArgumentException("generator: granule must be at least 1, not " + granule);
    }
    if (models.isEmpty()) {
      throw new IllegalArgumentException("generator: a serving trace needs at least one model");
    }
    List<Forward> fwd = models.stream().map(Forward::of).toList();
    List<Long> weights = new ArrayList<>();
    for (Forward f : fwd) {
      weights.addAll(f.weights);
    }
    int persistent = Math.min(buffers, weights.size());
    SplittableRandom rnd = new SplittableRandom(seed);
    List<Alloc> allocs = new ArrayList<>();
    List<int[]> running = new ArrayList<>(); // {model, batch, next op, arrival}
    List<int[]> times = new ArrayList<>(); // per running request: the timestep of each step
    int next = 0;
    int t = 0;
    long made = persistent;
    while (made < buffers || !running.isEmpty()) {
      if (made < buffers
          && (running.isEmpty() || (running.size() < CONCURRENCY && rnd.nextDouble() < ARRIVAL))) {
        int m = rnd.nextInt(fwd.size());
        double b = rnd.nextDouble();
        int batch = b < 0.4 ? 1 : b < 0.7 ? 2 : b < 0.9 ? 4 : 8;
        running.add(new int[] {m, batch, 0, t});
        int[] at = new int[fwd.get(m).ops + 1];
        at[0] = t; // the input arrives
        times.add(at);
        for (int[] l : fwd.get(m).lives) {
          if (l[0] == 0) {
            made++;
          }
        }
        t++;
        continue;
      }
      // run one op of the request whose turn it is
      next %= running.size();
      int[] r = running.get(next);
      int[] at = times.get(next);
      Forward f = fwd.get(r[0]);
      r[2]++;
      at[r[2]] = t;
      t++;
      for (int[] l : f.lives) {
        if (l[0] == r[2]) {
          made++;
        }
      }
      if (r[2] == f.ops) {
        for (int k = 0; k < f.lives.size(); k++) {
          int[] l = f.lives.get(k);
          long size = TrainingTrace.roundUp(f.sizes.get(k) * r[1], granule);
          // ordered by allocation time, then by the request's arrival, then by tensor
          long order = ((long) at[l[0]] << 20) + k;
          allocs.add(new Alloc(at[l[0]], at[l[1]] + 1, size, order));
        }
        running.remove(next);
        times.remove(next);
      } else {
        next++;
      }
    }
    allocs.sort(Comparator.comparingLong(Alloc::order));
    int end = t + 1;
    List<Buffer> out = new ArrayList<>(buffers);
    for (int i = 0; i < persistent; i++) {
      out.add(
          Buffer.of(Integer.toString(i), 0, end, TrainingTrace.roundUp(weights.get(i), granule)));
    }
    for (int i = 0; out.size() < buffers && i < allocs.size(); i++) {
      Alloc a = allocs.get(i);
      out.add(Buffer.of(Integer.toString(out.size()), a.lower, a.upper, a.size));
    }
    String names = String.join("+", models.stream().map(Graph::name).toList());
    return DsaInstance.of("serving-" + names + "-" + buffers + "-s" + seed, List.copyOf(out));
  }
}
