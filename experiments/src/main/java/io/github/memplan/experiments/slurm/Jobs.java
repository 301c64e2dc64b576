package io.github.memplan.experiments.slurm;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Submits a suite to Slurm as a job array over its shards plus a merge job after it, and resubmits
 * the shards that did not finish. Everything is checked before anything is submitted; a merge job
 * that cannot be submitted cancels the array just submitted.
 */
public final class Jobs {
  /**
   * What the jobs run: the CLI jar (copied into {@code DIR/slurm/}) and the other jars of its class
   * path (the model and native jars, which stay where they are: release jars do not change).
   *
   * @param jar the shaded CLI jar
   * @param libraries the rest of the class path
   */
  public record Launch(Path jar, List<Path> libraries) {
    public Launch {
      libraries = List.copyOf(libraries);
    }

    /** This JVM's: the jar this class was loaded from, and the rest of java.class.path. */
    public static Launch current() {
      Path jar;
      try {
        jar =
            Path.of(Jobs.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toAbsolutePath()
                .normalize();
      } catch (URISyntaxException | RuntimeException e) {
        throw new IllegalArgumentException("cannot tell which jar memplan runs from: " + e);
      }
      if (!Files.isRegularFile(jar) || !jar.toString().endsWith(".jar")) {
        throw new IllegalArgumentException(
            "memplan slurm runs from the CLI jar (start it with ./memplan), not from " + jar);
      }
      List<Path> libs = new ArrayList<>();
      for (String e : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
        if (e.isEmpty()) {
          continue;
        }
        Path p = Path.of(e).toAbsolutePath().normalize();
        if (!p.equals(jar) && Files.exists(p)) {
          libs.add(p);
        }
      }
      return new Launch(jar, libs);
    }
  }

  private final Tools tools;
  private final PrintWriter out;

  public Jobs(Tools tools, PrintWriter out) {
    this.tools = tools;
    this.out = out;
  }

  /** The runs of shard {@code k} of {@code n} over {@code runs} runs (index mod n = k-1). */
  static int shardRuns(int runs, int k, int n) {
    return runs / n + (k - 1 < runs % n ? 1 : 0);
  }

  /**
   * Writes the scripts into {@code DIR/slurm/} and, unless {@code dryRun}, submits the array and
   * the merge job after it.
   */
  public void submit(Scripts.Settings s, Layout l, Launch launch, boolean dryRun)
      throws IOException {
    s.validate();
    if (l.out().toString().matches(".*[\\s'\"\\\\$`].*")) {
      throw new IllegalArgumentException(
          "--out: Slurm's #SBATCH lines take no spaces or quotes in paths: " + l.out());
    }
    if (Files.exists(l.record())) {
      JobRecord old = JobRecord.read(l);
      if (!old.submissions().isEmpty()) {
        throw new IllegalArgumentException(
            l.out()
                + ": already submitted (array job "
                + old.submissions().get(0).array()
                + "); see memplan slurm status "
                + l.out()
                + ", or use another --out");
      }
    }
    if (!dryRun) {
      if (!tools.has("sbatch")) {
        throw new IllegalArgumentException(
            "sbatch not found on the PATH: memplan slurm submits with Slurm's sbatch"
                + " (--dry-run writes the scripts only)");
      }
      checkPartition(s.partition());
    }
    List<Integer> shardRuns = new ArrayList<>();
    for (int k = 1; k <= s.tasks(); k++) {
      shardRuns.add(shardRuns(s.runs(), k, s.tasks()));
    }
    JobRecord job =
        new JobRecord(
            s.suite().toString(),
            s.name(),
            s.runs(),
            s.tasks(),
            s.maxRunning(),
            shardRuns,
            List.of());
    Files.createDirectories(l.logs());
    Files.createDirectories(l.shards());
    copyJar(launch, l);
    write(l.arrayScript(), Scripts.array(s, l));
    write(l.mergeScript(), Scripts.merge(s, l));
    job.write(l);
    int min = shardRuns.get(shardRuns.size() - 1);
    int max = shardRuns.get(0);
    out.println(
        "suite "
            + s.name()
            + ": "
            + s.runs()
            + " runs in "
            + s.tasks()
            + " shards of "
            + (min == max ? Integer.toString(max) : min + " to " + max)
            + " runs");
    out.println("jar:      " + l.jar());
    out.println("array:    " + l.arrayScript());
    out.println("merge:    " + l.mergeScript());
    if (dryRun) {
      out.println("dry run: nothing submitted; to submit by hand:");
      out.println("  sbatch --parsable " + l.arrayScript());
      out.println("  sbatch --parsable --dependency=afterok:<array job> " + l.mergeScript());
      return;
    }
    String array = sbatch(List.of(l.arrayScript().toString()));
    String merge;
    try {
      merge = sbatch(List.of("--dependency=afterok:" + array, l.mergeScript().toString()));
    } catch (IOException | RuntimeException e) {
      tools.run("scancel", List.of(array));
      throw new IllegalArgumentException(
          "the merge job was not submitted (" + e.getMessage() + "); cancelled array job " + array);
    }
    job = job.with(new JobRecord.Submission(array, range(1, s.tasks()), merge));
    job.write(l);
    out.println(
        "array job "
            + array
            + ": "
            + s.tasks()
            + " tasks"
            + (s.maxRunning() == null ? "" : ", at most " + s.maxRunning() + " at once"));
    out.println("merge job " + merge + ": after array job " + array);
    out.println("status:   memplan slurm status " + l.out());
  }

  /**
   * Resubmits the shards that are not done and that Slurm no longer holds (failed, cancelled, timed
   * out, never submitted), and a merge job after them and after the tasks still running; the old
   * merge job, which waits on the failed tasks for ever, is cancelled. With every shard done and no
   * merged results, submits the merge job alone.
   *
   * @param extra sbatch options for the new jobs, before the script (they override its #SBATCH
   *     lines, e.g. {@code --time=8:00:00} after a timeout)
   */
  public void resubmit(Layout l, List<String> extra) throws IOException {
    Status.Report r = Status.of(l, tools);
    JobRecord job = r.job();
    if (!r.known()) {
      throw new IllegalArgumentException(
          "cannot tell which shards still run (" + r.source().replaceFirst("^none: ", "") + ")");
    }
    if (!tools.has("sbatch")) {
      throw new IllegalArgumentException("sbatch not found on the PATH: is Slurm here?");
    }
    List<Integer> todo = new ArrayList<>(r.of(Status.Kind.FAILED));
    todo.addAll(r.of(Status.Kind.NOT_SUBMITTED));
    todo.sort(null);
    List<String> active = r.activeTasks();
    String oldMerge = job.lastMerge();
    boolean mergeActive = Status.active(r.mergeState());
    boolean mergeStuck = mergeActive && r.mergeState().contains("DependencyNeverSatisfied");
    if (todo.isEmpty()) {
      if (!active.isEmpty()) {
        List<Integer> running =
            r.shards().stream()
                .filter(sh -> sh.task() != null && Status.active(sh.state()))
                .map(Status.Shard::k)
                .toList();
        out.println(
            "nothing to resubmit: shards " + Status.join(running) + " are queued or running");
        return;
      }
      if (r.merged()) {
        out.println("nothing to resubmit: every shard is done and merged into " + l.out());
        return;
      }
      if (mergeActive && !mergeStuck) {
        out.println("nothing to resubmit: merge job " + oldMerge + " is " + r.mergeState());
        return;
      }
    }
    String array = null;
    if (!todo.isEmpty()) {
      List<String> args = new ArrayList<>(extra);
      args.add(
          "--array="
              + ranges(todo.stream().map(k -> k - 1).toList())
              + (job.maxRunning() == null ? "" : "%" + job.maxRunning()));
      args.add(l.arrayScript().toString());
      array = sbatch(args);
    }
    Set<String> deps = new LinkedHashSet<>();
    if (array != null) {
      deps.add(array);
    }
    deps.addAll(active);
    List<String> margs = new ArrayList<>(extra);
    if (!deps.isEmpty()) {
      margs.add("--dependency=afterok:" + String.join(":", deps));
    }
    margs.add(l.mergeScript().toString());
    String merge = sbatch(margs);
    job = job.with(new JobRecord.Submission(array, array == null ? List.of() : todo, merge));
    job.write(l);
    if (array != null) {
      out.println(
          (todo.size() == 1 ? "resubmitted shard " : "resubmitted shards ")
              + Status.join(todo)
              + ": array job "
              + array
              + " (tasks "
              + ranges(todo.stream().map(k -> k - 1).toList())
              + ")");
    }
    List<String> after = new ArrayList<>();
    if (array != null) {
      after.add("array job " + array);
    }
    active.forEach(t -> after.add("task " + t));
    out.println(
        "merge job " + merge + (after.isEmpty() ? "" : ": after " + String.join(" and ", after)));
    if (oldMerge != null && mergeActive) {
      Tools.Output c = tools.run("scancel", List.of(oldMerge));
      out.println(
          c.ok()
              ? "cancelled the old merge job " + oldMerge
              : "could not cancel the old merge job " + oldMerge + ": " + c.firstLine());
    }
    out.println("status:   memplan slurm status " + l.out());
  }

  /** Fails on a partition that {@code sinfo} does not list (when sinfo is there and answers). */
  private void checkPartition(String partition) throws IOException {
    if (partition == null || !tools.has("sinfo")) {
      return;
    }
    Tools.Output o = tools.run("sinfo", List.of("-h", "-o", "%R"));
    if (!o.ok()) {
      return;
    }
    Set<String> known = new LinkedHashSet<>();
    for (String line : o.out().split("\\R")) {
      if (!line.isBlank()) {
        known.add(line.strip());
      }
    }
    for (String p : partition.split(",")) {
      if (!known.contains(p)) {
        throw new IllegalArgumentException(
            "unknown partition '"
                + p
                + "' (sinfo lists: "
                + (known.isEmpty() ? "none" : String.join(", ", known))
                + ")");
      }
    }
  }

  /** {@code sbatch --parsable ARGS}: the job id. */
  private String sbatch(List<String> args) throws IOException {
    List<String> all = new ArrayList<>();
    all.add("--parsable");
    all.addAll(args);
    Tools.Output o = tools.run("sbatch", all);
    if (!o.ok()) {
      throw new IllegalArgumentException("sbatch failed: " + o.firstLine());
    }
    String id = o.out().strip();
    int semi = id.indexOf(';');
    if (semi >= 0) {
      id = id.substring(0, semi);
    }
    if (!id.matches("\\d+")) {
      throw new IllegalArgumentException("sbatch printed '" + o.out().strip() + "', not a job id");
    }
    return id;
  }

  private static void copyJar(Launch launch, Layout l) throws IOException {
    if (!Files.exists(l.jar()) || !Files.isSameFile(launch.jar(), l.jar())) {
      Path tmp = l.jar().resolveSibling("memplan.jar.tmp");
      Files.copy(launch.jar(), tmp, StandardCopyOption.REPLACE_EXISTING);
      Files.move(tmp, l.jar(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
    List<String> cp = new ArrayList<>();
    cp.add(l.jar().toString());
    launch.libraries().forEach(p -> cp.add(p.toString()));
    write(l.classpath(), String.join(File.pathSeparator, cp) + "\n");
  }

  private static void write(Path file, String text) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  static List<Integer> range(int from, int to) {
    List<Integer> out = new ArrayList<>();
    for (int i = from; i <= to; i++) {
      out.add(i);
    }
    return out;
  }

  /** Sorted ids as Slurm's array ranges: 0-2,5. */
  static String ranges(List<Integer> ids) {
    StringBuilder sb = new StringBuilder();
    int i = 0;
    while (i < ids.size()) {
      int j = i;
      while (j + 1 < ids.size() && ids.get(j + 1) == ids.get(j) + 1) {
        j++;
      }
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(ids.get(i));
      if (j > i) {
        sb.append('-').append(ids.get(j));
      }
      i = j + 1;
    }
    return sb.toString();
  }
}
