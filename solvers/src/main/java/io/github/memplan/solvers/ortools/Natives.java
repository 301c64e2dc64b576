package io.github.memplan.solvers.ortools;

import com.google.ortools.Loader;
import io.github.memplan.solvers.dsa.cpsat.CpSatPlanner;
import java.util.Locale;

/**
 * OR-Tools' native library, loaded once per class loader. Only the build platform's native jar is
 * on the class path (an OS-activated profile of the solvers module); on any other platform loading
 * fails and the CP-SAT planners ({@link CpSatPlanner}, {@code lmem-exact}) answer {@code ERROR}
 * with {@link #problem()}.
 */
public final class Natives {
  private Natives() {}

  private static final String PROBLEM = load();

  private static String load() {
    try {
      Loader.loadNativeLibraries();
      return null;
    } catch (LinkageError | RuntimeException e) {
      return "OR-Tools' native library for this platform ("
          + System.getProperty("os.name", "?").toLowerCase(Locale.ROOT)
          + ", "
          + System.getProperty("os.arch", "?")
          + ") is not on the class path (./memplan puts the build platform's there): "
          + e;
    }
  }

  /** Whether CP-SAT can run here. */
  public static boolean available() {
    return PROBLEM == null;
  }

  /** Why CP-SAT cannot run here, or {@code null}. */
  public static String problem() {
    return PROBLEM;
  }
}
