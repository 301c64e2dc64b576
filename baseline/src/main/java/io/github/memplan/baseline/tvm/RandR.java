package io.github.memplan.baseline.tvm;

/**
 * glibc's {@code rand_r}: the generator TVM's hill climb calls on Linux with a state that starts at
 * 0, so that runs of {@link HillClimbPlanner} with {@code rng=rand_r} draw TVM's own sequence.
 * Values lie in {@code [0, 2^31)}, like {@code RAND_MAX = 2^31 - 1}. Not thread-safe; one per run.
 *
 * <p>Transcribed from glibc {@code stdlib/rand_r.c}: three steps of the linear congruence {@code
 * next = next * 1103515245 + 12345} (unsigned 32-bit), taking 11, 10 and 10 bits of {@code next /
 * 65536}.
 */
final class RandR {
  private int state;

  RandR(int seed) {
    this.state = seed;
  }

  int next() {
    int next = state;
    next = next * 1103515245 + 12345;
    int result = (int) ((Integer.toUnsignedLong(next) / 65536) % 2048);
    next = next * 1103515245 + 12345;
    result <<= 10;
    result ^= (int) ((Integer.toUnsignedLong(next) / 65536) % 1024);
    next = next * 1103515245 + 12345;
    result <<= 10;
    result ^= (int) ((Integer.toUnsignedLong(next) / 65536) % 1024);
    state = next;
    return result;
  }
}
