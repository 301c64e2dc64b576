package io.github.memplan.experiments.slurm;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Slurm's commands ({@code sbatch}, {@code squeue}, {@code sacct}, {@code sinfo}, {@code scancel}),
 * found on the {@code PATH} of an environment and run with it; tests give one whose PATH holds
 * fakes.
 */
public final class Tools {
  /** How long one command may take. */
  static final long TIMEOUT_SECONDS = 120;

  /**
   * What a command did.
   *
   * @param exit its exit code
   * @param out its stdout
   * @param err its stderr
   */
  public record Output(int exit, String out, String err) {
    public boolean ok() {
      return exit == 0;
    }

    /** The first non-blank line of stderr, else of stdout, for an error message. */
    public String firstLine() {
      for (String text : List.of(err, out)) {
        for (String line : text.split("\\R")) {
          if (!line.isBlank()) {
            return line.strip();
          }
        }
      }
      return "exit code " + exit;
    }
  }

  private final Map<String, String> env;

  /** Tools on the PATH of {@code env}, which the commands also run with. */
  public Tools(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  /** The executable {@code tool} on the PATH, if there is one. */
  public Optional<Path> which(String tool) {
    String path = env.getOrDefault("PATH", "");
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      Path p = Path.of(dir, tool);
      if (Files.isRegularFile(p) && Files.isExecutable(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  public boolean has(String tool) {
    return which(tool).isPresent();
  }

  /**
   * Runs {@code tool} with {@code args}.
   *
   * @throws IllegalArgumentException when the tool is not on the PATH
   * @throws IOException when it cannot be started or does not end in time
   */
  public Output run(String tool, List<String> args) throws IOException {
    Path exe =
        which(tool)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(tool + " not found on the PATH: is Slurm here?"));
    List<String> cmd = new ArrayList<>();
    cmd.add(exe.toString());
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().putAll(env);
    Process p = pb.start();
    p.getOutputStream().close();
    CompletableFuture<String> err =
        CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
    String out = readAll(p.getInputStream());
    try {
      if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException(tool + " did not end within " + TIMEOUT_SECONDS + " s");
      }
      return new Output(p.exitValue(), out, err.join());
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException(tool + ": interrupted", e);
    }
  }

  private static String readAll(java.io.InputStream in) {
    try (in) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
