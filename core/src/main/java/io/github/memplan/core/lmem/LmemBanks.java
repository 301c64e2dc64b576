package io.github.memplan.core.lmem;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The bank rules of LMEM placement, defined once for the allocators, the metrics, the plot and the
 * search solvers. One lane's LMEM is cut into {@code banks} banks of {@code bankBytes}; a buffer at
 * address {@code a} of {@code s} bytes occupies banks {@code a / bankBytes .. (a + s - 1) /
 * bankBytes}. Both rules are preferences of TPU-MLIR, never validity rules ({@link LmemValidator}).
 *
 * <p><b>Straddle</b> (the 2022 v0 rule, {@code reference/tpu-mlir.md} §2.13, seed
 * "lmem分配时优先不要跨bank"): a buffer of at most {@code bankBytes} bytes that occupies two or more banks.
 * A larger buffer must cross a boundary and is never counted, which is exactly when v0's {@code
 * alloc} skips its bank-aware pass.
 *
 * <p><b>Conflict</b> (today's {@code exclude_banks} condition, §2.10): an unordered pair of buffers
 * {@code (x, y)}, not the same buffer, that
 *
 * <ol>
 *   <li>occupy at least one common bank, and
 *   <li>in some timestep where both are live, either one is touched by the TIU and the other by the
 *       GDMA, or both are operands, results or scratch of the same TIU op of that row.
 * </ol>
 *
 * "Touched by the TIU" in a row means an operand, result or scratch buffer of one of the row's TIU
 * ops; "touched by the GDMA" means listed in the row's {@code gdma}. Scratch counts as TIU use here
 * (the TIU reads and writes it); §2.10 leaves scratch out only of the <em>priority</em> term, which
 * {@code lmem-tpumlir} follows separately. In-place pairs are not exempt: they share addresses by
 * design, and if the TIU op reads one while writing the other they conflict like any such pair, as
 * in the source where a partner's banks are excluded too. Condition 2 does not depend on the
 * addresses; {@link Engines#conflicting} evaluates it alone.
 */
public final class LmemBanks {
  private LmemBanks() {}

  /** The first bank buffer {@code bytes} at {@code address} occupies. */
  public static int firstBank(LmemInstance instance, long address) {
    return (int) (address / instance.bankBytes());
  }

  /** The last bank a buffer of {@code bytes} at {@code address} occupies. */
  public static int lastBank(LmemInstance instance, long address, long bytes) {
    return (int) ((address + bytes - 1) / instance.bankBytes());
  }

  /** Whether a buffer of {@code bytes} at {@code address} straddles a bank boundary (v0 rule). */
  public static boolean straddles(LmemInstance instance, long address, long bytes) {
    return bytes <= instance.bankBytes()
        && firstBank(instance, address) != lastBank(instance, address, bytes);
  }

  /** Whether two placed buffers occupy a common bank. */
  public static boolean shareBank(LmemInstance instance, long a1, long s1, long a2, long s2) {
    return firstBank(instance, a1) <= lastBank(instance, a2, s2)
        && firstBank(instance, a2) <= lastBank(instance, a1, s1);
  }

  /** Why a pair conflicts. */
  public enum Reason {
    /** one is touched by the TIU and the other by the GDMA in the same row */
    TIU_GDMA,
    /** both belong to the same TIU op of a row */
    SAME_TIU_OP
  }

  /**
   * A conflicting pair, {@code a < b} (buffer indices), at the first row where the condition holds.
   */
  public record Conflict(int a, int b, int timestep, Reason reason) {}

  /**
   * The bank report of a solution.
   *
   * @param straddling indices of the buffers that straddle (ascending)
   * @param conflicts the conflicting pairs (ascending by {@code a}, then {@code b})
   */
  public record Report(List<Integer> straddling, List<Conflict> conflicts) {
    public Report {
      straddling = List.copyOf(straddling);
      conflicts = List.copyOf(conflicts);
    }

    public int straddleCount() {
      return straddling.size();
    }

    public int conflictCount() {
      return conflicts.size();
    }
  }

  /** The straddles and conflicts of {@code solution}. */
  public static Report report(LmemInstance instance, LmemSolution solution) {
    List<LmemBuffer> buffers = instance.buffers();
    if (solution.size() != buffers.size()) {
      throw new IllegalArgumentException(
          instance.name()
              + ": "
              + solution.size()
              + " addresses for "
              + buffers.size()
              + " buffers");
    }
    List<Integer> straddling = new ArrayList<>();
    for (int i = 0; i < buffers.size(); i++) {
      if (straddles(instance, solution.address(i), buffers.get(i).bytes())) {
        straddling.add(i);
      }
    }
    Engines engines = Engines.of(instance);
    List<Conflict> conflicts = new ArrayList<>();
    for (int i = 0; i < buffers.size(); i++) {
      for (int j = i + 1; j < buffers.size(); j++) {
        if (shareBank(
            instance,
            solution.address(i),
            buffers.get(i).bytes(),
            solution.address(j),
            buffers.get(j).bytes())) {
          Conflict c = engines.conflict(i, j);
          if (c != null) {
            conflicts.add(c);
          }
        }
      }
    }
    return new Report(straddling, conflicts);
  }

  /**
   * Which buffers each engine touches in each row of an instance's timestep table, for the
   * address-independent half of the conflict rule.
   */
  public static final class Engines {
    private final LmemInstance instance;
    private final BitSet[] tiu;
    private final BitSet[] gdma;
    private final List<List<BitSet>> ops;

    /** Per buffer, the rows where the TIU or the GDMA touches it, ascending. */
    private final int[][] touched;

    private Engines(LmemInstance instance) {
      this.instance = instance;
      int t = instance.timestepCount();
      tiu = new BitSet[t];
      gdma = new BitSet[t];
      ops = new ArrayList<>();
      for (int r = 0; r < t; r++) {
        Timestep row = instance.timesteps().get(r);
        tiu[r] = new BitSet();
        gdma[r] = new BitSet();
        row.gdma().forEach(gdma[r]::set);
        List<BitSet> rowOps = new ArrayList<>();
        for (Timestep.TiuOp op : row.tiu()) {
          BitSet s = new BitSet();
          op.operands().forEach(s::set);
          op.results().forEach(s::set);
          op.scratch().forEach(s::set);
          tiu[r].or(s);
          rowOps.add(s);
        }
        ops.add(rowOps);
      }
      int n = instance.buffers().size();
      List<List<Integer>> rows = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        rows.add(new ArrayList<>());
      }
      for (int r = 0; r < t; r++) {
        BitSet any = (BitSet) tiu[r].clone();
        any.or(gdma[r]);
        for (int i = any.nextSetBit(0); i >= 0 && i < n; i = any.nextSetBit(i + 1)) {
          rows.get(i).add(r);
        }
      }
      touched = new int[n][];
      for (int i = 0; i < n; i++) {
        touched[i] = rows.get(i).stream().mapToInt(Integer::intValue).toArray();
      }
    }

    public static Engines of(LmemInstance instance) {
      return new Engines(instance);
    }

    /** Whether the TIU touches buffer {@code i} in row {@code r} (operand, result or scratch). */
    public boolean tiu(int r, int i) {
      return tiu[r].get(i);
    }

    /** Whether the GDMA touches buffer {@code i} in row {@code r}. */
    public boolean gdma(int r, int i) {
      return gdma[r].get(i);
    }

    /** Whether {@code i} and {@code j} would conflict if they shared a bank. */
    public boolean conflicting(int i, int j) {
      return conflict(i, j) != null;
    }

    /**
     * The first row where {@code i} and {@code j} (distinct) meet the engine condition, or {@code
     * null}.
     */
    public Conflict conflict(int i, int j) {
      if (i == j) {
        return null;
      }
      LmemBuffer x = instance.buffers().get(i);
      LmemBuffer y = instance.buffers().get(j);
      // every condition below needs i touched in row r
      for (int r : touched[i]) {
        if (!x.liveAt(r) || !y.liveAt(r)) {
          continue;
        }
        int a = Math.min(i, j);
        int b = Math.max(i, j);
        if ((tiu[r].get(i) && gdma[r].get(j)) || (gdma[r].get(i) && tiu[r].get(j))) {
          return new Conflict(a, b, r, Reason.TIU_GDMA);
        }
        for (BitSet op : ops.get(r)) {
          if (op.get(i) && op.get(j)) {
            return new Conflict(a, b, r, Reason.SAME_TIU_OP);
          }
        }
      }
      return null;
    }
  }
}
