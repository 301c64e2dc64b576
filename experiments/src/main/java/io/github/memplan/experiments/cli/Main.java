package io.github.memplan.experiments.cli;

import io.github.memplan.core.io.InputText;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code memplan} command. Exit codes: 0 success, 1 bad input or a failed run (the message on
 * one line of stderr, {@code memplan: ...}), 2 bad usage.
 */
@Command(
    name = "memplan",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Memory planning for deep-learning compilers: baselines, search, experiments.",
    subcommands = {
      ListCommand.class,
      ZooCommand.class,
      DatasetsCommand.class,
      GmemCommand.class,
      GroupCommand.class,
      DsaCommand.class,
      DeviceCommand.class,
      LmemCommand.class,
      RunCommand.class,
      MergeCommand.class,
      SlurmCommand.class,
      ReportCommand.class
    },
    usageHelpAutoWidth = true)
public final class Main implements Callable<Integer> {
  static final int OK = 0;
  static final int FAILED = 1;
  static final int USAGE = 2;

  @Spec CommandSpec spec;

  @Option(
      names = "--verbose",
      scope = ScopeType.INHERIT,
      description = "On an error, print the stack trace too.")
  boolean verbose;

  public static void main(String[] args) {
    int code;
    try {
      code = newCommandLine().execute(args);
    } catch (OutOfMemoryError | StackOverflowError e) {
      System.err.println("memplan: the run " + outOf(e));
      code = FAILED;
    }
    System.exit(code);
  }

  /**
   * What an {@link OutOfMemoryError} or {@link StackOverflowError} means, for one line: "ran out of
   * memory (...); ..." with the way to give the JVM more.
   */
  static String outOf(VirtualMachineError e) {
    if (e instanceof StackOverflowError) {
      return "ran out of stack (StackOverflowError); more stack: MEMPLAN_JAVA_OPTS=-Xss64m";
    }
    return "ran out of memory (OutOfMemoryError: "
        + (e.getMessage() == null ? "" : e.getMessage())
        + ", max heap "
        + (Runtime.getRuntime().maxMemory() >> 20)
        + " MiB); more heap: MEMPLAN_JAVA_OPTS=-Xmx16g";
  }

  /** The configured command line; set its out and err to capture output. */
  public static CommandLine newCommandLine() {
    CommandLine cl = new CommandLine(new Main());
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    // no @FILE argument files: an argument starting with '@' is taken as given (picocli would read
    // the file, and fail on a directory or an unreadable one with an exception no handler sees)
    cl.setExpandAtFiles(false);
    cl.setParameterExceptionHandler(new UsageErrors());
    cl.setExecutionExceptionHandler(new RunErrors());
    return cl;
  }

  @Override
  public Integer call() {
    throw new ParameterException(
        spec.commandLine(),
        "no command given (list, zoo, datasets, gmem, dsa, device, lmem, group, run, merge, report or slurm)");
  }

  /** A failure whose message is meant for the user as it is (one line, no stack trace). */
  static final class Failure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Failure(String message) {
      super(message);
    }
  }

  /** Bad usage: one line, then where to look; exit 2. */
  static final class UsageErrors implements IParameterExceptionHandler {
    @Override
    public int handleParseException(ParameterException ex, String[] args) {
      CommandLine cl = ex.getCommandLine();
      PrintWriter err = cl.getErr();
      err.println("memplan: " + oneLine(ex.getMessage()));
      err.println("Try '" + cl.getCommandSpec().qualifiedName() + " --help' for more information.");
      err.flush();
      return USAGE;
    }
  }

  /** Bad input or a failed run: one line on stderr, the trace only with --verbose; exit 1. */
  static final class RunErrors implements IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(Exception ex, CommandLine cl, ParseResult parsed) {
      PrintWriter err = cl.getErr();
      boolean expected =
          ex instanceof IllegalArgumentException
              || ex instanceof IOException
              || ex instanceof UncheckedIOException
              || ex instanceof Failure;
      String message = expected ? describe(ex) : "internal error: " + ex;
      err.println("memplan: " + oneLine(message));
      if (verbose(parsed) || !expected) {
        ex.printStackTrace(err);
      }
      err.flush();
      return FAILED;
    }

    private static boolean verbose(ParseResult parsed) {
      for (ParseResult p = parsed; p != null; p = p.subcommand()) {
        if (p.hasMatchedOption("--verbose")) {
          return true;
        }
      }
      return false;
    }
  }

  /** A user-facing description: I/O errors say what went wrong with which file. */
  static String describe(Throwable ex) {
    if (ex instanceof UncheckedIOException u && u.getCause() != null) {
      return describe(u.getCause());
    }
    if (ex instanceof NoSuchFileException e) {
      return e.getFile() + ": no such file or directory";
    }
    if (ex instanceof AccessDeniedException e) {
      return e.getFile() + ": permission denied";
    }
    if (ex instanceof FileAlreadyExistsException e) {
      return e.getFile() + ": already exists";
    }
    if (ex instanceof NotDirectoryException e) {
      return e.getFile() + ": not a directory";
    }
    if (ex instanceof FileSystemException e) {
      return e.getMessage();
    }
    if (ex instanceof IOException) {
      return "I/O error: " + ex.getMessage();
    }
    String m = ex.getMessage();
    return m == null || m.isBlank() ? ex.getClass().getSimpleName() : m;
  }

  static String oneLine(String message) {
    return InputText.oneLine(message);
  }

  /** The version of the experiments module, filtered in at build time. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      Properties p = new Properties();
      try (InputStream in = Main.class.getResourceAsStream("/memplan-version.properties")) {
        if (in != null) {
          p.load(in);
        }
      }
      return new String[] {
        "memplan " + p.getProperty("version", "(unknown version)"),
        "Java "
            + System.getProperty("java.version")
            + " ("
            + System.getProperty("java.vendor")
            + ")"
      };
    }
  }
}
