package io.github.memplan.experiments.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.memplan.experiments.suite.MetricInfo;
import io.github.memplan.experiments.suite.Suite;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * manifest.json: the resolved suite (its text and its expansion), the git commit, JVM, OS, CPU
 * model, cores, start time, memplan version, shard and jobs. It describes the machine and the
 * moment, so it is not part of the byte-identical results.
 */
public final class Manifest {
  private Manifest() {}

  static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /** The manifest of a run of {@code suite}. */
  static Map<String, Object> of(
      Suite suite, int runs, Shard shard, int jobs, Instant start, int resumed) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("suite", suite.name());
    m.put("suiteFile", suite.file() == null ? null : suite.file().toAbsolutePath().toString());
    m.put("seed", suite.seed());
    m.put("replicates", suite.replicates());
    m.put("runs", runs);
    m.put("shard", shard.toString());
    m.put("jobs", jobs);
    m.put("resumedRuns", resumed);
    m.put("start", start.toString());
    m.put("memplanVersion", version());
    m.put("gitCommit", gitCommit(suite.file()));
    m.put(
        "java",
        System.getProperty("java.version")
            + " ("
            + System.getProperty("java.vendor")
            + ", "
            + System.getProperty("java.vm.name")
            + ")");
    m.put(
        "os",
        System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " "
            + System.getProperty("os.arch"));
    m.put("cpu", cpuModel());
    m.put("cores", Runtime.getRuntime().availableProcessors());
    List<Object> problems = new ArrayList<>();
    for (Suite.Problem<?, ?> p : suite.problems()) {
      Map<String, Object> pm = new LinkedHashMap<>();
      pm.put("problem", p.kind().name());
      pm.put("instances", p.instances().stream().map(i -> i.name()).toList());
      List<Object> planners = new ArrayList<>();
      for (Suite.PlannerEntry<?, ?> s : p.planners()) {
        Map<String, Object> sm = new LinkedHashMap<>();
        sm.put("label", s.label());
        sm.put("planner", s.id());
        sm.put("params", s.params());
        planners.add(sm);
      }
      pm.put("planners", planners);
      pm.put("metrics", p.metrics().stream().map(MetricInfo::id).toList());
      pm.put(
          "timeLimit", p.budget().timeLimit() == null ? null : p.budget().timeLimit().toString());
      pm.put("steps", p.budget().steps() == Long.MAX_VALUE ? null : p.budget().steps());
      problems.add(pm);
    }
    m.put("problems", problems);
    m.put("suiteText", suite.text());
    return m;
  }

  static void write(Path file, Object manifest) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, JSON.writeValueAsString(manifest) + "\n", StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** The memplan version filtered in at build time. */
  public static String version() {
    Properties p = new Properties();
    try (InputStream in = Manifest.class.getResourceAsStream("/memplan-version.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      return null;
    }
    return p.getProperty("version");
  }

  /** {@code git rev-parse HEAD} in the suite file's directory, or null when that fails. */
  static String gitCommit(Path suiteFile) {
    Path dir =
        suiteFile == null ? Path.of(".") : suiteFile.toAbsolutePath().normalize().getParent();
    try {
      Process p =
          new ProcessBuilder("git", "rev-parse", "HEAD")
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return null;
      }
      return p.exitValue() == 0 && out.matches("[0-9a-f]{40}") ? out : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** The first {@code model name} of /proc/cpuinfo, or os.arch where there is none. */
  static String cpuModel() {
    Path info = Path.of("/proc/cpuinfo");
    try {
      if (Files.isReadable(info)) {
        for (String line : Files.readAllLines(info, StandardCharsets.UTF_8)) {
          if (line.startsWith("model name")) {
            return line.substring(line.indexOf(':') + 1).strip();
          }
        }
      }
    } catch (IOException e) {
      // no CPU model then
    }
    return System.getProperty("os.arch");
  }
}
