package io.github.memplan.datasets.dsa;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A seeded generator of DSA instances shaped like the activation buffers of a DNN inference
 * schedule, for scale experiments (1k to 100k+ buffers) where no real model is that large.
 *
 * <p>The schedule is a sequence of ops, one per timestep. Op {@code t} defines one output, whose
 * lifetime starts at {@code t} and ends (exclusive) after its last reader:
 *
 * <ul>
 *   <li>72%: a chain output read only by the next op: {@code [t, t+2)};
 *   <li>18%: a residual or branch input, read again 1-6 ops later: {@code [t, t+3..t+8)};
 *   <li>6%: a multi-use tensor (inception and FPN fan-out): {@code [t, t+8..t+42)};
 *   <li>4%: a long skip connection (U-Net, detection heads, attention caches): {@code [t,
 *       t+42..t+402)};
 * </ul>
 *
 * and, with probability 15%, a scratch buffer (im2col, softmax workspace) alive only during the op,
 * {@code [t, t+1)}, of 10-100% of the output's size. Lifetimes are clipped to the schedule's end.
 *
 * <p>Sizes follow network stages. The schedule is a concatenation of segments of 200-2,000 ops (the
 * networks of a serving mix, or the blocks of a large model), each starting from a base activation
 * size log-uniform in [256 KiB, 4 MiB]; inside a segment, a stage lasts 8-64 ops and at each new
 * stage the base halves (50%: downsampling), doubles (20%: upsampling) or stays (30%), kept in [4
 * KiB, 32 MiB]. Skip connections may cross segment borders. An output is the base times a channel
 * factor (1 at 60%, 4 for an expansion at 15%, 1/4 for a bottleneck at 15%, 2 at 10%) times a
 * log-normal jitter (sigma 0.35), rounded up to the granule (64 B unless given).
 *
 * <p>These proportions are a judgement from the zoo's GMEM instances (chains dominate; residual
 * blocks and multi-branch modules add short overlaps; few tensors live long), not a fit to a
 * published distribution. The same (buffers, seed, granule) always give the same instance; buffer
 * ids are {@code 0..n-1} in order of definition.
 */
public final class DsaTraceGenerator {
  /** Smallest and largest stage base size. */
  private static final long MIN_BASE = 4L << 10;

  private static final long MAX_BASE = 8L << 20;

  private DsaTraceGenerator() {}

  /** An instance of {@code buffers} buffers from {@code seed}, sizes in multiples of 64 B. */
  public static DsaInstance generate(int buffers, long seed) {
    return generate(buffers, seed, 64);
  }

  /**
   * An instance of exactly {@code buffers} buffers from {@code seed}, sizes rounded up to {@code
   * granule} bytes.
   */
  public static DsaInstance generate(int buffers, long seed, long granule) {
    if (buffers < 1) {
      throw new IllegalArgumentException("generator: buffers must be at least 1, not " + buffers);
    }
    if (granule < 1) {
      throw new IllegalArgumentException("generator: granule must be at least 1, not " + granule);
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    int[] lower = new int[buffers];
    int[] upper = new int[buffers];
    long[] size = new long[buffers];
    int n = 0;
    int t = 0;
    double base = 0;
    int segmentLeft = 0;
    int stageLeft = 0;
    while (n < buffers) {
      if (segmentLeft-- == 0) {
        base = Math.exp(Math.log(256 << 10) + rnd.nextDouble() * Math.log(16));
        segmentLeft = 200 + rnd.nextInt(1801);
        stageLeft = 8 + rnd.nextInt(57);
      } else if (stageLeft-- == 0) {
        double r = rnd.nextDouble();
        base *= r < 0.5 ? 0.5 : r < 0.7 ? 2 : 1;
        base = Math.min(MAX_BASE, Math.max(MIN_BASE, base));
        stageLeft = 8 + rnd.nextInt(57);
      }
      double f = rnd.nextDouble();
      double factor = f < 0.6 ? 1 : f < 0.75 ? 4 : f < 0.9 ? 0.25 : 2;
      double jitter = Math.exp(0.35 * gaussian(rnd));
      long out = roundUp(Math.max(1, (long) Math.ceil(base * factor * jitter)), granule);
      double k = rnd.nextDouble();
      int span =
          k < 0.72
              ? 2
              : k < 0.90
                  ? 3 + rnd.nextInt(6)
                  : k < 0.96 ? 8 + rnd.nextInt(35) : 42 + rnd.nextInt(361);
      lower[n] = t;
      upper[n] = t + span;
      size[n] = out;
      n++;
      if (n < buffers && rnd.nextDouble() < 0.15) {
        lower[n] = t;
        upper[n] = t + 1;
        size[n] = roundUp((long) Math.ceil(out * (0.1 + 0.9 * rnd.nextDouble())), granule);
        n++;
      }
      t++;
    }
    int end = t + 1;
    List<Buffer> list = new ArrayList<>(buffers);
    for (int i = 0; i < buffers; i++) {
      list.add(Buffer.of(Integer.toString(i), lower[i], Math.min(upper[i], end), size[i]));
    }
    return DsaInstance.of(name(buffers, seed), list);
  }

  /**
   * The name of {@code generate(buffers, seed)}: {@code gen-BUFFERS-sSEED}, in the CLI as in
   * suites.
   */
  public static String name(int buffers, long seed) {
    return "gen-" + buffers + "-s" + seed;
  }

  private static double gaussian(SplittableRandom rnd) {
    // Box-Muller from two uniforms, so the stream is fixed by the seed alone
    double u = 1.0 - rnd.nextDouble();
    double v = rnd.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  private static long roundUp(long x, long g) {
    return (x + g - 1) / g * g;
  }
}
