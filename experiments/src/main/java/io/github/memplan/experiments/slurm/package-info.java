/**
 * Suites on a Slurm cluster: a job array over the shards of a suite and a merge job after it
 * ({@link io.github.memplan.experiments.slurm.Scripts}), the submissions recorded in the output
 * directory ({@link io.github.memplan.experiments.slurm.JobRecord}), each shard's progress and
 * Slurm state ({@link io.github.memplan.experiments.slurm.Status}), and the resubmission of the
 * unfinished shards ({@link io.github.memplan.experiments.slurm.Jobs}).
 */
package io.github.memplan.experiments.slurm;
