package io.github.memplan.datasets.darknet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The oracle of {@link DarknetImporter}: for every cfg of the zoo (the shipped ones, copied to a
 * temporary directory for darknet), each layer's sizes equal those that darknet itself prints when
 * it loads the cfg ({@code darknet ops CFG}: {@code parse_network_cfg}'s table {@code layer filters
 * size input output}). Skipped when the {@code darknet} binary is not on the PATH. Slow (darknet
 * initialises every weight: about 3 CPU-minutes for the 45 cfgs), hence an IT, run two at a time.
 */
class DarknetOracleIT {
  @TempDir Path work;

  record Outcome(String cfg, int layers, int matched, List<String> problems) {}

  @Test
  void everyLayerOfEveryCfgHasDarknetsSizes() throws Exception {
    assumeTrue(onPath("darknet"), "the darknet binary is not on the PATH");
    List<DarknetZoo.Cfg> zoo = DarknetZoo.cfgs();
    assertThat(zoo).isNotEmpty();
    Path copies = Files.createDirectory(work.resolve("cfg"));
    List<Path> cfgs = new ArrayList<>();
    for (DarknetZoo.Cfg c : zoo) {
      cfgs.add(Files.writeString(copies.resolve(c.file()), c.text()));
    }
    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<Future<Outcome>> futures = new ArrayList<>();
    try {
      for (Path cfg : cfgs) {
        futures.add(pool.submit(() -> check(cfg)));
      }
      int layers = 0;
      int matched = 0;
      int clean = 0;
      List<String> problems = new ArrayList<>();
      for (Future<Outcome> f : futures) {
        Outcome o = f.get();
        layers += o.layers();
        matched += o.matched();
        if (o.problems().isEmpty()) {
          clean++;
        }
        for (String p : o.problems()) {
          problems.add(o.cfg() + ": " + p);
        }
      }
      String summary =
          "darknet oracle: "
              + cfgs.size()
              + " cfgs, "
              + clean
              + " match darknet in every layer; "
              + matched
              + " of "
              + layers
              + " layers match";
      System.out.println(summary);
      problems.forEach(p -> System.out.println("  " + p));
      assertThat(problems).as(summary).isEmpty();
      assertThat(matched).isEqualTo(layers).isPositive();
    } finally {
      pool.shutdownNow();
    }
  }

  private Outcome check(Path cfg) throws IOException, InterruptedException {
    String name = cfg.getFileName().toString();
    List<DarknetTable.Row> rows;
    long flops;
    try {
      String printed = DarknetTable.runOps(cfg, work);
      rows = DarknetTable.parse(printed);
      flops = DarknetTable.flops(printed);
    } catch (IOException | IllegalArgumentException e) {
      return new Outcome(name, 0, 0, List.of("darknet's table: " + e.getMessage()));
    }
    DarknetNetwork net;
    try {
      net = DarknetImporter.load(cfg);
    } catch (IllegalArgumentException e) {
      return new Outcome(name, rows.size(), 0, List.of("does not import: " + e.getMessage()));
    }
    OracleCheck.Result r = OracleCheck.compare(net, rows);
    List<String> problems = new ArrayList<>(r.mismatches());
    long counted = 2 * OracleCheck.darknetCountedMacs(net);
    if (counted != flops) {
      problems.add(
          "2 x MACs = " + counted + ", darknet ops counts " + flops + " floating point operations");
    }
    return new Outcome(name, r.layers(), r.matched(), problems);
  }

  private static boolean onPath(String program) {
    String path = System.getenv("PATH");
    if (path == null) {
      return false;
    }
    for (String dir : path.split(java.io.File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
        return true;
      }
    }
    return false;
  }
}
