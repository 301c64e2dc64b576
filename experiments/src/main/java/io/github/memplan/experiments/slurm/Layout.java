package io.github.memplan.experiments.slurm;

import java.nio.file.Path;

/**
 * Where {@code memplan slurm} puts things in its output directory {@code DIR}: the merged results
 * in {@code DIR} itself, shard {@code k} in {@code DIR/shards/k}, and under {@code DIR/slurm/} the
 * job scripts, the copied CLI jar, its class path, the record of the submissions and the tasks'
 * logs.
 *
 * @param out the output directory, absolute
 */
public record Layout(Path out) {
  public Layout {
    out = out.toAbsolutePath().normalize();
  }

  public Path slurm() {
    return out.resolve("slurm");
  }

  public Path arrayScript() {
    return slurm().resolve("array.sbatch");
  }

  public Path mergeScript() {
    return slurm().resolve("merge.sbatch");
  }

  /** The CLI jar the jobs run: a copy, so that a rebuild cannot change it under them. */
  public Path jar() {
    return slurm().resolve("memplan.jar");
  }

  /** The jobs' class path on one line: {@link #jar()}, then the model and native jars. */
  public Path classpath() {
    return slurm().resolve("classpath.txt");
  }

  /** The suite, its shards and the submissions: {@link JobRecord}. */
  public Path record() {
    return slurm().resolve("job.json");
  }

  public Path logs() {
    return slurm().resolve("logs");
  }

  public Path shards() {
    return out.resolve("shards");
  }

  /** Shard {@code k}'s result directory, from 1. */
  public Path shard(int k) {
    return shards().resolve(Integer.toString(k));
  }
}
