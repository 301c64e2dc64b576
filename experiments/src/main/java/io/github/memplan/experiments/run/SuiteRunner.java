package io.github.memplan.experiments.run;

import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Direction;
import io.github.memplan.core.solve.ProgressListener;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.experiments.measure.GuardedSolve;
import io.github.memplan.experiments.measure.Measured;
import io.github.memplan.experiments.measure.RunStatus;
import io.github.memplan.experiments.store.Csv;
import io.github.memplan.experiments.store.ResultColumns;
import io.github.memplan.experiments.store.ResultRow;
import io.github.memplan.experiments.store.ResultsFile;
import io.github.memplan.experiments.suite.MetricInfo;
import io.github.memplan.experiments.suite.Suite;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a suite into a directory: results.csv, anytime.csv and manifest.json.
 *
 * <p>Runs go to a pool of {@code jobs} workers; each run executes on a fresh daemon thread under a
 * {@link Budget} built from its problem's budget when the run starts. A run still going at its time
 * limit plus a grace margin ({@link #grace}: 1 s + 10% of the limit) is cancelled ({@link
 * Budget#cancel}); if it has not returned one grace margin later its thread is interrupted, and the
 * run is recorded {@code TIMEOUT} either way (a thread that ignores both is abandoned; it is a
 * daemon and does not keep the JVM alive). A run that throws, or whose solution the validator
 * rejects, is recorded {@code ERROR} with the message; the suite goes on.
 *
 * <p>Each finished run's rows are appended to results.csv at once and forced to disk. At the end of
 * a complete run the file is rewritten in run order, so two runs of one suite with the same seeds
 * give the same bytes once the {@code time-ms} rows are dropped. With {@code resume}, complete runs
 * already in results.csv are kept and only the others are run; a torn last line is dropped. A run
 * that ends while the JVM shuts down (a signal: Slurm's {@code scancel}, Ctrl-C) is not recorded,
 * since what it met may be the shutdown itself; a resumed run redoes it.
 */
public final class SuiteRunner {
  /**
   * How to run.
   *
   * @param out the output directory
   * @param resume keep the complete runs already in {@code out}
   * @param shard which runs to do
   * @param jobs parallel runs
   * @param err where progress goes
   * @param terminal draw a progress bar instead of one line per run
   */
  public record Options(
      Path out, boolean resume, Shard shard, int jobs, PrintStream err, boolean terminal) {}

  /**
   * What a run of the suite did.
   *
   * @param rows the results rows of the shard, in run order
   * @param runs the runs in the shard
   * @param resumed the runs kept from an earlier, interrupted run
   * @param results the results file
   */
  public record Summary(List<ResultRow> rows, int runs, int resumed, Path results) {}

  private final Suite suite;
  private final Options opts;

  public SuiteRunner(Suite suite, Options opts) {
    this.suite = suite;
    this.opts = opts;
  }

  public Summary run() throws IOException {
    Instant start = Instant.now();
    List<SuiteRun<?, ?>> all = SuiteRun.expand(suite);
    List<SuiteRun<?, ?>> mine = all.stream().filter(r -> opts.shard().contains(r.index())).toList();
    Files.createDirectories(opts.out());
    Path results = opts.out().resolve(ResultColumns.RESULTS_FILE);
    Path anytime = opts.out().resolve(ResultColumns.ANYTIME_FILE);
    List<ResultRow> kept = new ArrayList<>();
    if (Files.exists(results)) {
      if (!opts.resume()) {
        throw new IllegalArgumentException(
            results + ": already exists (use --resume to complete it, or another --out)");
      }
      kept.addAll(ResultsFile.read(results));
      checkBelongs(kept, all, results);
    }
    Set<Integer> done = new HashSet<>();
    kept.forEach(r -> done.add(r.run()));
    List<String> keptAnytime = new ArrayList<>();
    if (opts.resume() && Files.exists(anytime)) {
      List<String> lines = Files.readAllLines(anytime, StandardCharsets.UTF_8);
      for (int i = 1; i < lines.size(); i++) {
        try {
          if (done.contains(anytimeRun(lines.get(i)))) {
            keptAnytime.add(lines.get(i));
          }
        } catch (IllegalArgumentException e) {
          // a torn line: its run is redone
        }
      }
    }
    List<SuiteRun<?, ?>> todo = mine.stream().filter(r -> !done.contains(r.index())).toList();
    Manifest.write(
        opts.out().resolve(ResultColumns.MANIFEST_FILE),
        Manifest.of(suite, all.size(), opts.shard(), opts.jobs(), start, done.size()));
    writeLines(anytime, keptAnytime);
    Progress progress = new Progress(mine.size(), done.size());
    try (ResultsFile out = ResultsFile.create(results, ResultsFile.sorted(kept))) {
      ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, opts.jobs()));
      try {
        List<Future<?>> futures = new ArrayList<>();
        for (SuiteRun<?, ?> r : todo) {
          futures.add(
              pool.submit(
                  () -> {
                    List<String> curve = new ArrayList<>();
                    List<ResultRow> rows = execute(r, curve);
                    if (jvmShuttingDown()) {
                      // a signal (Slurm's scancel, Ctrl-C) is stopping the JVM: what this run met
                      // may be the shutdown itself (a native library that can no longer register
                      // its clean-up, an interrupted solver), so it is not recorded, and a resumed
                      // run redoes it
                      return null;
                    }
                    try {
                      synchronized (this) {
                        appendLines(anytime, curve);
                        out.append(rows);
                      }
                    } catch (IOException e) {
                      throw new UncheckedIOException(e);
                    }
                    progress.done(r, rows.get(0).status(), rows.get(rows.size() - 1).value());
                    return null;
                  }));
        }
        for (Future<?> f : futures) {
          f.get();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        if (c instanceof UncheckedIOException u) {
          throw u.getCause();
        }
        throw new IllegalStateException(c);
      } finally {
        pool.shutdownNow();
      }
    }
    progress.finish();
    List<ResultRow> rows = ResultsFile.sorted(ResultsFile.read(results));
    ResultsFile.write(results, rows);
    sortAnytime(anytime);
    return new Summary(rows, mine.size(), done.size(), results);
  }

  /**
   * Whether the JVM has begun to shut down. {@link Runtime#addShutdownHook} refuses a hook once
   * shutdown has begun, before any hook runs, so the answer does not race with other hooks. A flag
   * set by a hook of our own would: {@code ApplicationShutdownHooks.runHooks} empties the hook
   * table (from then on a hook is refused, which is what a run may fail on) before it starts any
   * hook thread, so a run failed by the shutdown could be checked before that hook had run and be
   * recorded. The unstarted probe thread costs an allocation per run, nothing more.
   */
  static boolean jvmShuttingDown() {
    Thread probe = new Thread(() -> {}, "memplan-shutdown-probe");
    try {
      Runtime.getRuntime().addShutdownHook(probe);
      Runtime.getRuntime().removeShutdownHook(probe);
      return false;
    } catch (IllegalStateException e) {
      return true;
    }
  }

  /** Rows from an earlier run must be runs of this suite (same index, same key). */
  private void checkBelongs(List<ResultRow> kept, List<SuiteRun<?, ?>> all, Path file) {
    for (ResultRow r : kept) {
      SuiteRun<?, ?> s = r.run() >= 0 && r.run() < all.size() ? all.get(r.run()) : null;
      if (s == null
          || !r.suite().equals(suite.name())
          || !r.instance().equals(s.instance().name())
          || !r.planner().equals(s.planner().label())
          || r.seed() != s.seed()
          || !r.params().equals(s.planner().paramsString())) {
        throw new IllegalArgumentException(
            file
                + ": run "
                + r.run()
                + " ("
                + r.runKey()
                + ") is not a run of suite '"
                + suite.name()
                + "' as it is now; resume only with the suite file and seed it was started with");
      }
    }
  }

  /** Runs {@code r} and returns its rows; the planner's improvements go to {@code curve}. */
  <I, S> List<ResultRow> execute(SuiteRun<I, S> r, List<String> curve) {
    Suite.BudgetSpec b = r.problem().budget();
    I in;
    try {
      in = r.instance().load();
    } catch (RuntimeException e) {
      return rows(
          r,
          Measured.error("instance '" + r.instance().name() + "': " + GuardedSolve.describe(e)),
          0);
    }
    long t0 = System.nanoTime();
    Budget budget = Budget.of(b.timeLimit(), b.steps());
    ProgressListener listener =
        (obj, bound, note) -> {
          synchronized (curve) {
            curve.add(anytimeLine(r, (System.nanoTime() - t0) / 1e6, obj, bound, note));
          }
        };
    SolveContext ctx = new SolveContext(r.seed(), new SplittableRandom(r.seed()), budget, listener);
    Measured<S> m = r.problem().kind().solveGuarded(r.planner().planner(), in, ctx, b.timeLimit());
    return rows(r, m, m.millis());
  }

  private List<ResultRow> rows(SuiteRun<?, ?> r, Measured<?> outcome, double millis) {
    List<ResultRow> rows = new ArrayList<>();
    for (MetricInfo m : r.problem().metrics()) {
      OptionalDouble v = outcome.values().getOrDefault(m.id(), OptionalDouble.empty());
      rows.add(row(r, outcome, m.id(), ResultRow.format(v), m.unit(), m.direction()));
    }
    rows.add(
        row(
            r,
            outcome,
            ResultColumns.TIME_METRIC,
            String.format(Locale.ROOT, "%.3f", millis),
            "ms",
            Direction.LOWER_IS_BETTER));
    return rows;
  }

  private ResultRow row(
      SuiteRun<?, ?> r,
      Measured<?> outcome,
      String metric,
      String value,
      String unit,
      Direction dir) {
    return new ResultRow(
        suite.name(),
        r.problem().kind().name(),
        r.instance().name(),
        r.planner().label(),
        r.planner().paramsString(),
        r.seed(),
        r.replicate(),
        outcome.status(),
        metric,
        value,
        unit,
        dir,
        r.index(),
        outcome.status().failed() ? outcome.message() : "");
  }

  private String anytimeLine(SuiteRun<?, ?> r, double ms, long obj, long bound, String note) {
    return Csv.line(
        List.of(
            suite.name(),
            r.problem().kind().name(),
            r.instance().name(),
            r.planner().label(),
            r.planner().paramsString(),
            Long.toString(r.seed()),
            Integer.toString(r.replicate()),
            Integer.toString(r.index()),
            String.format(Locale.ROOT, "%.3f", ms),
            obj == Long.MAX_VALUE ? "" : Long.toString(obj),
            bound == 0 ? "" : Long.toString(bound),
            note == null ? "" : note));
  }

  private static int anytimeRun(String line) {
    List<String> f = Csv.fields(line);
    if (f.size() != ResultColumns.ANYTIME.size()) {
      throw new IllegalArgumentException("torn");
    }
    try {
      return Integer.parseInt(f.get(ResultColumns.ANYTIME.indexOf(ResultColumns.RUN)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("torn", e);
    }
  }

  static void writeLines(Path file, List<String> lines) throws IOException {
    StringBuilder sb = new StringBuilder(String.join(",", ResultColumns.ANYTIME)).append('\n');
    lines.forEach(l -> sb.append(l).append('\n'));
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, sb, StandardCharsets.UTF_8);
    Files.move(
        tmp,
        file,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  private static void appendLines(Path file, List<String> lines) throws IOException {
    if (lines.isEmpty()) {
      return;
    }
    StringBuilder sb = new StringBuilder();
    lines.forEach(l -> sb.append(l).append('\n'));
    Files.writeString(file, sb, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
  }

  /** Sorts anytime.csv by run (stable within a run); drops a torn line. */
  static void sortAnytime(Path file) throws IOException {
    List<String> lines = readAnytime(file);
    lines.sort(java.util.Comparator.comparingInt(SuiteRunner::anytimeRun));
    writeLines(file, lines);
  }

  /** anytime.csv's data lines, torn ones dropped. */
  static List<String> readAnytime(Path file) throws IOException {
    List<String> out = new ArrayList<>();
    if (!Files.exists(file)) {
      return out;
    }
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (int i = 1; i < lines.size(); i++) {
      try {
        anytimeRun(lines.get(i));
        out.add(lines.get(i));
      } catch (IllegalArgumentException e) {
        // torn
      }
    }
    return out;
  }

  /** Progress on stderr: a bar on a terminal, else one line per run. */
  private final class Progress {
    private final int total;
    private final AtomicInteger finished;
    private final AtomicInteger failed = new AtomicInteger();

    Progress(int total, int already) {
      this.total = total;
      this.finished = new AtomicInteger(already);
      if (already > 0) {
        opts.err().println("memplan run: resuming, " + already + " of " + total + " runs done");
      }
    }

    void done(SuiteRun<?, ?> r, RunStatus status, String millis) {
      int n = finished.incrementAndGet();
      if (status.failed()) {
        failed.incrementAndGet();
      }
      synchronized (this) {
        if (opts.terminal()) {
          int width = 30;
          int filled = total == 0 ? width : (int) ((long) n * width / total);
          opts.err()
              .print(
                  "\r["
                      + "#".repeat(filled)
                      + " ".repeat(width - filled)
                      + "] "
                      + n
                      + "/"
                      + total
                      + " runs, "
                      + failed.get()
                      + " failed ");
        } else {
          opts.err()
              .println(
                  "memplan run: ["
                      + n
                      + "/"
                      + total
                      + "] "
                      + r.describe()
                      + ": "
                      + status
                      + " ("
                      + millis
                      + " ms)");
        }
        opts.err().flush();
      }
    }

    void finish() {
      if (opts.terminal()) {
        opts.err().println();
      }
    }
  }
}
