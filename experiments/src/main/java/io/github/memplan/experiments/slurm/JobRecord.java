package io.github.memplan.experiments.slurm;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code DIR/slurm/job.json}: the suite, its shards and every submission of {@code memplan slurm},
 * so that {@code status} and {@code resubmit} need only the directory.
 *
 * @param suite the suite file, absolute
 * @param name the suite's name
 * @param runs the runs of the suite's expansion
 * @param tasks the shards, one array task each
 * @param maxRunning the array's {@code %K}, or null
 * @param shardRuns the runs of shard {@code k} at index {@code k-1}
 * @param submissions in order; the last one holding a shard is that shard's current task
 */
public record JobRecord(
    String suite,
    String name,
    int runs,
    int tasks,
    Integer maxRunning,
    List<Integer> shardRuns,
    List<Submission> submissions) {

  /**
   * One submission: an array job over some shards and the merge job after it.
   *
   * @param array the array job's id
   * @param shards the shards it runs (task {@code k-1} runs shard {@code k})
   * @param merge the merge job's id, or null
   */
  public record Submission(String array, List<Integer> shards, String merge) {
    public Submission {
      shards = shards == null ? List.of() : List.copyOf(shards);
    }
  }

  public JobRecord {
    shardRuns = List.copyOf(shardRuns);
    submissions = submissions == null ? List.of() : List.copyOf(submissions);
  }

  static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /** This record with {@code s} appended. */
  public JobRecord with(Submission s) {
    List<Submission> all = new ArrayList<>(submissions);
    all.add(s);
    return new JobRecord(suite, name, runs, tasks, maxRunning, shardRuns, all);
  }

  /** The array task that runs shard {@code k} now ({@code 12_3}), or null if none has. */
  public String taskOf(int k) {
    for (int i = submissions.size() - 1; i >= 0; i--) {
      Submission s = submissions.get(i);
      if (s.shards().contains(k)) {
        return s.array() + "_" + (k - 1);
      }
    }
    return null;
  }

  /** The last merge job, or null. */
  public String lastMerge() {
    for (int i = submissions.size() - 1; i >= 0; i--) {
      if (submissions.get(i).merge() != null) {
        return submissions.get(i).merge();
      }
    }
    return null;
  }

  /** Reads {@code DIR/slurm/job.json}. */
  public static JobRecord read(Layout l) throws IOException {
    Path f = l.record();
    if (!Files.exists(f)) {
      throw new IllegalArgumentException(
          l.out() + ": not a memplan slurm directory (no slurm/job.json)");
    }
    try {
      return JSON.readValue(f.toFile(), JobRecord.class);
    } catch (IOException e) {
      throw new IOException(f + ": not a memplan slurm job record: " + e.getMessage(), e);
    }
  }

  /** Writes {@code DIR/slurm/job.json} atomically. */
  public void write(Layout l) throws IOException {
    Files.createDirectories(l.slurm());
    Path tmp = l.record().resolveSibling("job.json.tmp");
    Files.writeString(tmp, JSON.writeValueAsString(this) + "\n", StandardCharsets.UTF_8);
    Files.move(
        tmp, l.record(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
