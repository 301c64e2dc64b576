package io.github.memplan.experiments.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatusTest {
  @Test
  void parsesSqueueAndSacctLines() {
    Map<String, String> m =
        Status.parse(
            "12_[3-5,7%2]|PENDING|Priority\n"
                + "12_1|CANCELLED by 0\n"
                + "13|RUNNING|None\n"
                + "\n"
                + "garbage\n"
                + "14.batch|COMPLETED|\n");
    assertThat(m)
        .containsExactly(
            entry("12_3", "PENDING (Priority)"),
            entry("12_4", "PENDING (Priority)"),
            entry("12_5", "PENDING (Priority)"),
            entry("12_7", "PENDING (Priority)"),
            entry("12_1", "CANCELLED"),
            entry("13", "RUNNING"),
            entry("14.batch", "COMPLETED"));
    assertThat(Status.expand("12_[x]")).containsExactly("12_[x]");
  }

  @Test
  void activeStates() {
    assertThat(Status.active("PENDING (DependencyNeverSatisfied)")).isTrue();
    assertThat(Status.active("COMPLETING")).isTrue();
    assertThat(Status.active("completed")).isFalse();
    assertThat(Status.active("OUT_OF_MEMORY")).isFalse();
    assertThat(Status.active(null)).isFalse();
  }

  @Test
  void aShardIsDoneFailedQueuedRunningNotSubmittedOrUnknown() {
    JobRecord job =
        new JobRecord(
            "/s.yaml",
            "s",
            12,
            5,
            null,
            List.of(3, 3, 2, 2, 2),
            List.of(
                new JobRecord.Submission("7", List.of(1, 2, 3, 4), "8"),
                new JobRecord.Submission("9", List.of(2), "10")));
    Map<String, String> states =
        Map.of("7_0", "COMPLETED", "7_1", "FAILED", "9_1", "RUNNING", "7_2", "PENDING");
    Status.Report r = Status.compute(job, List.of(3, 1, 0, -1, 0), states, true, -1, "squeue");
    assertThat(r.shards())
        .extracting(Status.Shard::kind)
        .containsExactly(
            Status.Kind.DONE,
            Status.Kind.RUNNING,
            Status.Kind.QUEUED,
            Status.Kind.FAILED,
            Status.Kind.NOT_SUBMITTED);
    assertThat(r.shards().get(1).task()).isEqualTo("9_1");
    assertThat(r.activeTasks()).containsExactly("9_1", "7_2");
    assertThat(r.merged()).isFalse();
    // the same without Slurm: what is not done is unknown
    Status.Report blind = Status.compute(job, List.of(3, 1, 0, 0, 0), Map.of(), false, -1, "none");
    assertThat(blind.of(Status.Kind.UNKNOWN)).containsExactly(2, 3, 4);
    List<String> lines = Status.render(r, new Layout(Path.of("/r")));
    assertThat(lines).last().isEqualTo("shards not submitted: 5");
  }

  @Test
  void arrayRangesAndShardSizes() {
    assertThat(Jobs.ranges(List.of(0, 1, 2, 5, 7, 8))).isEqualTo("0-2,5,7-8");
    assertThat(Jobs.ranges(List.of(3))).isEqualTo("3");
    assertThat(List.of(1, 2, 3, 4).stream().map(k -> Jobs.shardRuns(10, k, 4)).toList())
        .containsExactly(3, 3, 2, 2);
  }

  @Test
  void heapIsThreeQuartersOfMem() {
    assertThat(Scripts.heap("8G")).isEqualTo("-Xmx6144m");
    assertThat(Scripts.heap("1000")).isEqualTo("-Xmx750m");
    assertThat(Scripts.heap("16k")).isEqualTo("-Xmx64m");
    assertThat(Scripts.quote("/a b/it's")).isEqualTo("'/a b/it'\\''s'");
  }
}
