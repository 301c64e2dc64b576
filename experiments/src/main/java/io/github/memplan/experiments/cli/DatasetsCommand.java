package io.github.memplan.experiments.cli;

import io.github.memplan.core.dataset.DatasetFile;
import io.github.memplan.core.dataset.DatasetProvider;
import io.github.memplan.core.dataset.Datasets;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.dsa.MiniMallocCsv;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code memplan datasets list|show|export}: the benchmark datasets shipped with memplan. */
@Command(
    name = "datasets",
    mixinStandardHelpOptions = true,
    description = {
      "List, inspect and export the benchmark datasets shipped with memplan.",
      "An entry is named DATASET:ENTRY wherever an instance file is accepted: memplan dsa"
          + " --instance minimalloc:A, or in a suite's dsa instances."
    },
    subcommands = {
      DatasetsCommand.ListDatasets.class,
      DatasetsCommand.Show.class,
      DatasetsCommand.Export.class
    })
final class DatasetsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    throw new ParameterException(
        spec.commandLine(), "no datasets command given (list, show or export)");
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "The shipped datasets: name, problem, entries, license and description.")
  static final class ListDatasets implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--json", description = "Print one JSON array instead of a table.")
    boolean json;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      List<Map<String, Object>> objects = new ArrayList<>();
      List<String[]> rows = new ArrayList<>();
      for (DatasetProvider d : Datasets.all()) {
        int entries = d.entries().size();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", d.name());
        m.put("problem", d.problem());
        m.put("entries", entries);
        m.put("license", d.license());
        m.put("description", d.description());
        m.put("citation", d.citation());
        objects.add(m);
        rows.add(
            new String[] {
              d.name(), d.problem(), Integer.toString(entries), d.license(), d.description()
            });
      }
      if (json) {
        out.println(ZooCommand.json(objects));
      } else {
        ZooCommand.table(
            out,
            new String[] {"NAME", "PROBLEM", "ENTRIES", "LICENSE", "DESCRIPTION"},
            rows,
            new boolean[] {false, false, true, false, false});
      }
      out.flush();
      return Main.OK;
    }
  }

  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = {
        "A dataset's license, source and entries, each read and checked against its recorded"
            + " SHA-256.",
        "For dsa datasets also each entry's buffers and max-load (the lower bound on any peak)."
      })
  static final class Show implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "DATASET", description = "A name from 'memplan datasets list'.")
    String name;

    @Option(names = "--json", description = "Print one JSON object instead of text.")
    boolean json;

    @Override
    public Integer call() throws IOException {
      DatasetProvider d = Datasets.get(name);
      List<Map<String, Object>> entries = new ArrayList<>();
      List<String[]> rows = new ArrayList<>();
      for (Datasets.Entry e : Datasets.entries(d.name(), List.of())) {
        DatasetFile f = e.file();
        int bytes = f.bytes().length; // checks the recorded SHA-256
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("entry", f.name());
        m.put("reference", e.reference());
        m.put("file", f.path());
        m.put("bytes", bytes);
        m.put("sha256", f.sha256());
        String buffers = "-";
        String maxLoad = "-";
        if (d.problem().equals("dsa")) {
          DsaInstance in = MiniMallocCsv.readInstance(e);
          long load = LowerBounds.maxLoad(in);
          m.put("buffers", in.size());
          m.put("maxLoad", load);
          buffers = Integer.toString(in.size());
          maxLoad = Long.toString(load);
        }
        entries.add(m);
        rows.add(
            new String[] {
              f.name(), f.shortName(), f.path(), Integer.toString(bytes), buffers, maxLoad
            });
      }
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", d.name());
        m.put("problem", d.problem());
        m.put("license", d.license());
        m.put("description", d.description());
        m.put("citation", d.citation());
        m.put("documents", d.documents().stream().map(DatasetFile::path).toList());
        m.put("entries", entries);
        out.println(ZooCommand.json(m));
      } else {
        out.println("dataset      " + d.name());
        out.println("problem      " + d.problem());
        out.println("license      " + d.license());
        out.println("description  " + d.description());
        out.println("source       " + d.citation());
        out.println(
            "documents    "
                + String.join(", ", d.documents().stream().map(DatasetFile::path).toList()));
        out.println("checksums    " + rows.size() + " entries match their recorded SHA-256");
        out.println();
        ZooCommand.table(
            out,
            new String[] {"ENTRY", "SHORT", "FILE", "BYTES", "BUFFERS", "MAX-LOAD"},
            rows,
            new boolean[] {false, false, false, true, true, true});
      }
      out.flush();
      return Main.OK;
    }
  }

  @Command(
      name = "export",
      mixinStandardHelpOptions = true,
      description = {
        "Write a dataset's files, its documents (license, provenance) and a SHA256SUMS of them"
            + " into DIR, as 'sha256sum -c SHA256SUMS' checks them.",
        "A file already in DIR with other content is never overwritten: the export fails before"
            + " writing anything."
      })
  static final class Export implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DATASET", description = "A name from 'datasets list'.")
    String name;

    @Parameters(index = "1", paramLabel = "DIR", description = "Created when missing.")
    Path dir;

    @Override
    public Integer call() throws IOException {
      DatasetProvider d = Datasets.get(name);
      List<DatasetFile> files = new ArrayList<>(d.documents());
      files.addAll(d.entries());
      Map<Path, byte[]> contents = new LinkedHashMap<>();
      StringBuilder sums = new StringBuilder();
      for (DatasetFile f : files) {
        contents.put(dir.resolve(f.path()), f.bytes());
        sums.append(f.sha256()).append("  ").append(f.path()).append('\n');
      }
      contents.put(
          dir.resolve("SHA256SUMS"),
          sums.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
      for (Map.Entry<Path, byte[]> c : contents.entrySet()) {
        Path p = c.getKey();
        if (Files.exists(p)
            && (!Files.isRegularFile(p) || !Arrays.equals(Files.readAllBytes(p), c.getValue()))) {
          throw new IllegalArgumentException(
              p + ": exists with other content; nothing was exported (choose an empty DIR)");
        }
      }
      for (Map.Entry<Path, byte[]> c : contents.entrySet()) {
        Path parent = c.getKey().toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Files.write(c.getKey(), c.getValue());
      }
      PrintWriter out = spec.commandLine().getOut();
      out.println(
          d.name()
              + ": "
              + d.entries().size()
              + " entries and "
              + d.documents().size()
              + " documents written to "
              + dir
              + " (license "
              + d.license()
              + ")");
      out.flush();
      return Main.OK;
    }
  }
}
