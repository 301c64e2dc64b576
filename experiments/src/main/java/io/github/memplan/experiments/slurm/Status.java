package io.github.memplan.experiments.slurm;

import io.github.memplan.experiments.store.ResultColumns;
import io.github.memplan.experiments.store.ResultRow;
import io.github.memplan.experiments.store.ResultsFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Where the shards of a {@code memplan slurm} directory are: per shard, the runs done (the complete
 * runs in its results.csv) of the runs expected, the Slurm state of its current array task, and
 * what follows: running or queued (while Slurm holds the task), else done (every run complete),
 * failed (not done and no longer in Slurm's queue), not submitted, or unknown (no Slurm to ask).
 * The states come from {@code squeue} (which lists finished jobs for a while, MinJobAge) and, for
 * the jobs it no longer lists, from {@code sacct} where accounting works.
 */
public final class Status {
  private Status() {}

  /** What a shard's state means for it. */
  public enum Kind {
    DONE("done"),
    RUNNING("running"),
    QUEUED("queued"),
    FAILED("failed"),
    NOT_SUBMITTED("not submitted"),
    UNKNOWN("unknown");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /**
   * One shard.
   *
   * @param k the shard, from 1
   * @param done its complete runs
   * @param expected its runs
   * @param task its current array task ({@code 12_3}), or null
   * @param state the task's Slurm state (e.g. {@code PENDING (Priority)}), or null
   * @param kind what that means
   */
  public record Shard(int k, int done, int expected, String task, String state, Kind kind) {}

  /**
   * The whole directory.
   *
   * @param job the record of the submissions
   * @param shards the shards, in order
   * @param mergeState the last merge job's Slurm state, or null
   * @param mergedRuns the runs in the merged results.csv, or -1 when there is none
   * @param source where the states came from ({@code squeue}, {@code squeue, sacct}), or why there
   *     are none
   * @param known whether Slurm could be asked: without, a shard that is not done is unknown
   */
  public record Report(
      JobRecord job,
      List<Shard> shards,
      String mergeState,
      int mergedRuns,
      String source,
      boolean known) {

    /** The shards of {@code kind}, in order. */
    public List<Integer> of(Kind kind) {
      return shards.stream().filter(s -> s.kind() == kind).map(Shard::k).toList();
    }

    /** The array tasks Slurm still holds (queued or running), in shard order. */
    public List<String> activeTasks() {
      List<String> out = new ArrayList<>();
      for (Shard s : shards) {
        if (s.task() != null && active(s.state())) {
          out.add(s.task());
        }
      }
      return out;
    }

    /** Whether the merged results.csv holds every run. */
    public boolean merged() {
      return mergedRuns == job.runs();
    }
  }

  /** States in which Slurm still holds a job (it may yet run, or runs). */
  private static final Set<String> QUEUED =
      Set.of(
          "PENDING",
          "REQUEUED",
          "REQUEUE_FED",
          "REQUEUE_HOLD",
          "RESIZING",
          "SUSPENDED",
          "STOPPED",
          "SPECIAL_EXIT");

  private static final Set<String> RUNNING =
      Set.of("RUNNING", "CONFIGURING", "COMPLETING", "STAGE_OUT", "SIGNALING");

  /** Whether a job in {@code state} is queued or running. */
  public static boolean active(String state) {
    return state != null && (QUEUED.contains(word(state)) || RUNNING.contains(word(state)));
  }

  private static String word(String state) {
    String w = state.strip();
    int sp = w.indexOf(' ');
    return (sp < 0 ? w : w.substring(0, sp)).toUpperCase(Locale.ROOT);
  }

  /** Asks Slurm and reads the shard folders of {@code l}. */
  public static Report of(Layout l, Tools tools) throws IOException {
    JobRecord job = JobRecord.read(l);
    List<Integer> done = new ArrayList<>();
    for (int k = 1; k <= job.tasks(); k++) {
      done.add(runs(l.shard(k).resolve(ResultColumns.RESULTS_FILE)));
    }
    int merged = runs(l.out().resolve(ResultColumns.RESULTS_FILE));
    Map<String, String> states = new LinkedHashMap<>();
    List<String> sources = new ArrayList<>();
    String why = null;
    List<String> ids = jobIds(job);
    if (!ids.isEmpty()) {
      if (tools.has("squeue")) {
        Tools.Output q =
            tools.run("squeue", List.of("-h", "-r", "-t", "all", "--me", "-o", "%i|%T|%r"));
        if (q.ok()) {
          states.putAll(parse(q.out()));
          sources.add("squeue");
        } else {
          why = "squeue failed: " + q.firstLine();
        }
      } else {
        why = "squeue not found on the PATH";
      }
      if (tools.has("sacct")) {
        Tools.Output a =
            tools.run(
                "sacct",
                List.of("-n", "-P", "-X", "-o", "JobID,State", "-j", String.join(",", ids)));
        if (a.ok()) {
          parse(a.out()).forEach(states::putIfAbsent);
          sources.add("sacct");
        }
      }
    }
    boolean known = !sources.isEmpty() || ids.isEmpty();
    String source =
        ids.isEmpty() ? "nothing submitted" : known ? String.join(", ", sources) : "none: " + why;
    return compute(job, done, states, known, merged, source);
  }

  /** The job ids of {@code job}'s submissions, arrays and merges, in order. */
  static List<String> jobIds(JobRecord job) {
    Set<String> ids = new LinkedHashSet<>();
    for (JobRecord.Submission s : job.submissions()) {
      if (s.array() != null) {
        ids.add(s.array());
      }
      if (s.merge() != null) {
        ids.add(s.merge());
      }
    }
    return List.copyOf(ids);
  }

  /** The complete runs in a results.csv, -1 when there is none. */
  static int runs(Path results) throws IOException {
    if (!Files.exists(results)) {
      return -1;
    }
    return (int) ResultsFile.read(results).stream().mapToInt(ResultRow::run).distinct().count();
  }

  /** The report from the runs done per shard and the Slurm states of the jobs. */
  static Report compute(
      JobRecord job,
      List<Integer> done,
      Map<String, String> states,
      boolean known,
      int mergedRuns,
      String source) {
    List<Shard> shards = new ArrayList<>();
    for (int k = 1; k <= job.tasks(); k++) {
      int d = Math.max(0, done.get(k - 1));
      int expected = job.shardRuns().get(k - 1);
      String task = job.taskOf(k);
      String state = task == null ? null : states.get(task);
      Kind kind;
      if (state != null && RUNNING.contains(word(state))) {
        kind = Kind.RUNNING;
      } else if (state != null && QUEUED.contains(word(state))) {
        kind = Kind.QUEUED;
      } else if (d >= expected) {
        kind = Kind.DONE;
      } else if (task == null) {
        kind = Kind.NOT_SUBMITTED;
      } else if (state == null && !known) {
        kind = Kind.UNKNOWN;
      } else {
        kind = Kind.FAILED;
      }
      shards.add(new Shard(k, d, expected, task, state, kind));
    }
    String merge = job.lastMerge();
    return new Report(
        job, shards, merge == null ? null : states.get(merge), mergedRuns, source, known);
  }

  /**
   * Job states from lines {@code ID|STATE[|REASON]} ({@code squeue -o %i|%T|%r}, {@code sacct -P -o
   * JobID,State}): an array task is {@code 12_3}, and {@code 12_[3-5,7%2]} stands for several; a
   * reason other than None is kept after the state, {@code PENDING (Dependency)}; {@code CANCELLED
   * by 0} becomes {@code CANCELLED}.
   */
  public static Map<String, String> parse(String text) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String line : text.split("\\R")) {
      String[] f = line.strip().split("\\|");
      if (f.length < 2 || f[0].isEmpty() || f[1].isBlank()) {
        continue;
      }
      String state = word(f[1]);
      if (f.length > 2 && !f[2].isBlank() && !f[2].strip().equals("None")) {
        state += " (" + f[2].strip() + ")";
      }
      for (String id : expand(f[0].strip())) {
        out.put(id, state);
      }
    }
    return out;
  }

  /** {@code 12_[3-5,7%2]} as 12_3, 12_4, 12_5, 12_7; any other id as itself. */
  static List<String> expand(String id) {
    int open = id.indexOf("_[");
    if (open < 0 || !id.endsWith("]")) {
      return List.of(id);
    }
    String base = id.substring(0, open);
    String spec = id.substring(open + 2, id.length() - 1);
    int pct = spec.indexOf('%');
    if (pct >= 0) {
      spec = spec.substring(0, pct);
    }
    List<String> out = new ArrayList<>();
    try {
      for (String part : spec.split(",")) {
        String[] r = part.split("-");
        int from = Integer.parseInt(r[0].strip());
        int to = r.length > 1 ? Integer.parseInt(r[1].strip()) : from;
        for (int i = from; i <= to; i++) {
          out.add(base + "_" + i);
        }
      }
    } catch (NumberFormatException e) {
      return List.of(id);
    }
    return out;
  }

  /** The report as lines: a table of the shards and the merge job, then the failed shards. */
  public static List<String> render(Report r, Layout l) {
    JobRecord job = r.job();
    List<String> lines = new ArrayList<>();
    lines.add(
        "suite "
            + job.name()
            + ": "
            + job.runs()
            + " runs in "
            + job.tasks()
            + " shards, "
            + l.out()
            + " (Slurm states: "
            + r.source()
            + ")");
    List<List<String>> table = new ArrayList<>();
    table.add(List.of("shard", "runs", "status", "job", "slurm"));
    for (Shard s : r.shards()) {
      table.add(
          List.of(
              Integer.toString(s.k()),
              s.done() + "/" + s.expected(),
              s.kind().label(),
              s.task() == null ? "-" : s.task(),
              s.state() == null ? "-" : s.state()));
    }
    String merge = job.lastMerge();
    String mergeStatus;
    if (active(r.mergeState())) {
      mergeStatus = RUNNING.contains(word(r.mergeState())) ? "running" : "queued";
    } else if (r.merged()) {
      mergeStatus = "done";
    } else if (merge == null) {
      mergeStatus = "not submitted";
    } else if (r.mergeState() == null && !r.known()) {
      mergeStatus = "unknown";
    } else {
      mergeStatus = "failed";
    }
    table.add(
        List.of(
            "merge",
            Math.max(0, r.mergedRuns()) + "/" + job.runs(),
            mergeStatus,
            merge == null ? "-" : merge,
            r.mergeState() == null ? "-" : r.mergeState()));
    lines.addAll(columns(table));
    List<Integer> failed = r.of(Kind.FAILED);
    List<Integer> unknown = r.of(Kind.UNKNOWN);
    List<Integer> unsubmitted = r.of(Kind.NOT_SUBMITTED);
    if (failed.isEmpty()) {
      lines.add("failed shards: none");
    } else {
      lines.add(
          "failed shards: "
              + join(failed)
              + " (rerun them with: memplan slurm resubmit "
              + l.out()
              + ")");
    }
    if (!unsubmitted.isEmpty()) {
      lines.add("shards not submitted: " + join(unsubmitted));
    }
    if (!unknown.isEmpty()) {
      lines.add("shards of unknown state: " + join(unknown));
    }
    if (r.merged()) {
      lines.add("results: " + l.out().resolve(ResultColumns.RESULTS_FILE));
    }
    return lines;
  }

  static String join(List<Integer> ks) {
    return String.join(", ", ks.stream().map(String::valueOf).toList());
  }

  private static List<String> columns(List<List<String>> table) {
    int cols = table.get(0).size();
    int[] w = new int[cols];
    for (List<String> row : table) {
      for (int i = 0; i < cols; i++) {
        w[i] = Math.max(w[i], row.get(i).length());
      }
    }
    List<String> out = new ArrayList<>();
    for (List<String> row : table) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < cols; i++) {
        String c = row.get(i);
        sb.append(c).append(" ".repeat(w[i] - c.length() + 2));
      }
      out.add(sb.toString().stripTrailing());
    }
    return out;
  }
}
