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

/**
 * The allocation trace of training steps of a zoo model: what a framework with a caching allocator
 * (PyTorch, JAX) allocates and frees during {@code forward; backward; optimizer.step()}, derived
 * from the model's graph with the lifetimes that autograd gives each buffer. Deterministic: the
 * model, the batch size and the buffer count fix the instance.
 *
 * <p>One step of a graph whose topological order has {@code F} ops and {@code W} weights takes
 * {@code 2F + W + 2} timesteps: the input batch is loaded at 0, forward op {@code i} runs at {@code
 * 1 + i}, the loss gradient is seeded at {@code F + 1}, the backward of op {@code i} runs at {@code
 * 2F + 1 - i} (reverse order), and the optimizer updates weight {@code k} at {@code 2F + 2 + k}.
 * Buffers (activation and gradient sizes are the batch-1 graph's times the batch size):
 *
 * <ul>
 *   <li><b>weights and Adam's two moments</b>: three buffers per weight, alive over the whole trace
 *       (allocated before the first step, as a framework does);
 *   <li><b>forward activations</b>: one per op output, from its op to its last forward reader, or,
 *       if the backward of a reader needs it, to that reader's backward (saved for the backward
 *       pass). Which operands a backward needs follows the textbook derivatives: a convolution or
 *       matrix product saves its data inputs (for the weight gradient), Mul/Div/Pow both operands,
 *       ReLU/Sigmoid/Tanh/Softmax their output, the other unary activations, normalisations, max
 *       pooling and max/min reductions their input; Add/Sub, average pooling, data movement and
 *       sums save nothing. Shape-only ops (Reshape, Flatten, Squeeze, Unsqueeze) make views: no
 *       buffer of their own, they extend their source's lifetime;
 *   <li><b>activation gradients</b>: one per activation, from the backward of its last reader (the
 *       first to run) to the backward of its producer, plus, for every further reader, the partial
 *       gradient that reader's backward makes and that is added into it (alive one step);
 *   <li><b>weight gradients</b>: from the backward of the weight's reader to its optimizer update;
 *   <li><b>optimizer temporaries</b>: Adam's denominator {@code sqrt(v) + eps}, one step, weight
 *       sized.
 * </ul>
 *
 * <p>Steps repeat back to back with the same structure (as a real training loop does); the weights
 * and moments are shared by all of them. The trace is cut after exactly {@code buffers} buffers in
 * order of allocation (the persistent ones first), as a trace recorder stopped mid-step would cut
 * it; a cut buffer keeps its true lifetime. Buffer ids are {@code 0..n-1} in that order (weights,
 * first moments, second moments, then each step's buffers by allocation time), so the trace is
 * MiniMalloc CSV as it stands. Not modelled: convolution workspaces, BatchNorm's saved statistics,
 * integer index tensors of max pooling, and the allocator's rounding (sizes are rounded up to the
 * granule only).
 */
public final class TrainingTrace {
  private TrainingTrace() {}

  /** Saves nothing for its backward. */
  private static final int SAVE_NONE = 0;

  /** Its backward reads its data inputs. */
  private static final int SAVE_INPUTS = 1;

  /** Its backward reads its output. */
  private static final int SAVE_OUTPUT = 2;

  /**
   * A trace of {@code buffers} buffers of training steps of {@code model} at batch size {@code
   * batch}, sizes rounded up to {@code granule} bytes.
   */
  public static DsaInstance generate(Graph model, int buffers, int batch, long granule) {
    if (buffers < 1) {
      throw new IllegalArgumentException("generator: buffers must be at least 1, not " + buffers);
    }
    if (batch < 1) {
      throw new IllegalArgumentException("generator: batch must be at least 1, not " + batch);
    }
    if (granule < 1) {
      throw new IllegalArgumentException("generator: granule must be at least 1, not " + granule);
    }
    Step step = Step.of(model, batch, granule);
    List<Buffer> out = new ArrayList<>(buffers);
    // persistent: weights, then Adam's first and second moments; the end is fixed below
    int persistent = Math.min(buffers, 3 * step.weights.size());
    for (int i = 0; i < persistent; i++) {
      out.add(null);
    }
    int offset = 0;
    while (out.size() < buffers) {
      List<Interval> one = step.intervals;
      for (int i = 0; i < one.size() && out.size() < buffers; i++) {
        Interval b = one.get(i);
        out.add(
            Buffer.of(Integer.toString(out.size()), offset + b.lower, offset + b.upper, b.size));
      }
      offset += step.length;
    }
    int end = 0;
    for (int i = persistent; i < out.size(); i++) {
      end = Math.max(end, out.get(i).upper());
    }
    end = Math.max(end, 1);
    for (int i = 0; i < persistent; i++) {
      Tensor w = step.weights.get(i % step.weights.size());
      out.set(i, Buffer.of(Integer.toString(i), 0, end, roundUp(Math.max(1, w.bytes()), granule)));
    }
    return DsaInstance.of(
        "training-" + model.name() + "-b" + batch + "-" + buffers, List.copyOf(out));
  }

  /** The number of buffers of one step of {@code model}, without the persistent ones. */
  public static int buffersPerStep(Graph model) {
    return Step.of(model, 1, 1).intervals.size();
  }

  private record Interval(String name, int lower, int upper, long size) {}

  /** One training step's non-persistent buffers, sorted by allocation time. */
  private record Step(List<Tensor> weights, List<Interval> intervals, int length) {
    static Step of(Graph g, int batch, long granule) {
      List<Op> order = Schedule.topological(g);
      int f = order.size();
      Map<String, Integer> fwd = new HashMap<>();
      for (int i = 0; i < f; i++) {
        fwd.put(order.get(i).name(), 1 + i);
      }
      // storage roots: a view's output is stored in its source's buffer
      Map<String, String> root = new HashMap<>();
      for (Op op : order) {
        if (op.kind().category() == OpKind.Category.SHAPE
            && !op.inputs().isEmpty()
            && isActivation(g.tensor(op.inputs().get(0)))) {
          root.put(op.outputs().get(0), rootOf(root, op.inputs().get(0)));
        }
      }
      // per storage: defined at, last forward use, latest backward that reads it, grad range
      Map<String, int[]> life = new LinkedHashMap<>(); // {def, lastFwd, lastBwdRead}
      Map<String, int[]> grad = new LinkedHashMap<>(); // {first bwd (last reader), producer bwd}
      Map<String, Integer> readers = new HashMap<>();
      List<Tensor> weights = new ArrayList<>();
      Map<String, Integer> weightReader = new LinkedHashMap<>();
      int lossSeed = f + 1;
      for (String in : g.inputs()) {
        life.put(rootOf(root, in), new int[] {0, 0, -1});
      }
      for (int i = 0; i < f; i++) {
        Op op = order.get(i);
        int t = 1 + i;
        int bwd = 2 * f + 1 - i;
        for (String o : op.outputs()) {
          if (!root.containsKey(o)) {
            life.put(o, new int[] {t, t, -1});
          }
        }
        int save = saves(op.kind());
        for (String in : op.inputs()) {
          Tensor tensor = g.tensor(in);
          if (tensor.role() == Role.WEIGHT) {
            if (!weightReader.containsKey(in)) {
              weightReader.put(in, bwd);
              weights.add(tensor);
            }
            continue;
          }
          if (!isActivation(tensor) && tensor.role() != Role.INPUT) {
            continue;
          }
          String r = rootOf(root, in);
          int[] l = life.get(r);
          if (l == null) {
            continue;
          }
          l[1] = Math.max(l[1], t);
          if (save == SAVE_INPUTS) {
            l[2] = Math.max(l[2], bwd);
          }
          if (tensor.role() != Role.INPUT && op.kind().category() != OpKind.Category.SHAPE) {
            readers.merge(r, 1, Integer::sum);
            // the first backward to run is the last reader's
            int[] gr = grad.computeIfAbsent(r, k -> new int[] {-1, -1});
            gr[0] = gr[0] < 0 ? bwd : Math.min(gr[0], bwd);
          }
        }
        if (save == SAVE_OUTPUT) {
          for (String o : op.outputs()) {
            life.get(rootOf(root, o))[2] = bwd;
          }
        }
        for (String o : op.outputs()) {
          if (!root.containsKey(o)) {
            int[] gr = grad.computeIfAbsent(o, k -> new int[] {-1, -1});
            gr[1] = bwd;
          }
        }
      }
      for (String o : g.outputs()) {
        String r = rootOf(root, o);
        int[] l = life.get(r);
        if (l != null) {
          l[1] = Math.max(l[1], lossSeed); // the loss reads the outputs
        }
        int[] gr = grad.get(r);
        if (gr != null) {
          gr[0] = gr[0] < 0 ? lossSeed : Math.min(gr[0], lossSeed);
          readers.merge(r, 1, Integer::sum);
        }
      }
      long scale = batch;
      List<Interval> list = new ArrayList<>();
      for (Map.Entry<String, int[]> e : life.entrySet()) {
        int[] l = e.getValue();
        int upper = Math.max(l[1], l[2]) + 1;
        list.add(
            new Interval("act." + e.getKey(), l[0], upper, size(g, e.getKey(), scale, granule)));
      }
      for (Map.Entry<String, int[]> e : grad.entrySet()) {
        int[] gr = e.getValue();
        if (gr[0] < 0 || gr[1] < 0 || gr[0] > gr[1]) {
          continue; // never read, or not produced here
        }
        long sz = size(g, e.getKey(), scale, granule);
        list.add(new Interval("grad." + e.getKey(), gr[0], gr[1] + 1, sz));
        // partial gradients of the other readers: made by their backward, added in, freed
        int extra = readers.getOrDefault(e.getKey(), 1) - 1;
        for (int k = 0; k < extra; k++) {
          int at = Math.min(gr[1], gr[0] + 1 + k);
          list.add(new Interval("pgrad" + k + "." + e.getKey(), at, at + 1, sz));
        }
      }
      int opt = 2 * f + 2;
      for (int k = 0; k < weights.size(); k++) {
        Tensor w = weights.get(k);
        long sz = roundUp(Math.max(1, w.bytes()), granule);
        list.add(new Interval("wgrad." + w.name(), weightReader.get(w.name()), opt + k + 1, sz));
        list.add(new Interval("adam_denom." + w.name(), opt + k, opt + k + 1, sz));
      }
      list.sort(
          Comparator.comparingInt(Interval::lower)
              .thenComparingInt(Interval::upper)
              .thenComparing(Interval::name));
      return new Step(List.copyOf(weights), list, opt + weights.size());
    }

    private static long size(Graph g, String tensor, long scale, long granule) {
      return roundUp(Math.max(1, g.tensor(tensor).bytes()) * scale, granule);
    }
  }

  private static boolean isActivation(Tensor t) {
    return t.role() == Role.ACTIVATION || t.role() == Role.OUTPUT;
  }

  private static String rootOf(Map<String, String> root, String t) {
    String r = root.get(t);
    return r == null ? t : r;
  }

  /** What an op's backward reads (textbook derivatives). */
  private static int saves(OpKind k) {
    switch (k) {
      case RELU:
      case SIGMOID:
      case TANH:
      case SOFTMAX:
      case EXP:
      case SQRT:
        return SAVE_OUTPUT;
      case ADD:
      case SUB:
      case AVERAGE_POOL:
      case GLOBAL_AVERAGE_POOL:
      case REDUCE_MEAN:
      case REDUCE_SUM:
      case IDENTITY:
      case CAST:
      case NEG:
        return SAVE_NONE;
      case MAX_POOL:
      case GLOBAL_MAX_POOL:
      case REDUCE_MAX:
      case REDUCE_MIN:
        return SAVE_INPUTS;
      default:
        break;
    }
    switch (k.category()) {
      case CONV:
      case MATMUL:
      case NORM:
      case UNARY:
      case RECURRENT:
        return SAVE_INPUTS;
      case BINARY:
        return k == OpKind.MUL || k == OpKind.DIV || k == OpKind.POW ? SAVE_INPUTS : SAVE_NONE;
      default:
        return SAVE_NONE;
    }
  }

  static long roundUp(long x, long g) {
    return (x + g - 1) / g * g;
  }
}
