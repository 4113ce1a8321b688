package io.ktk.flink.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.ktk.flink.state.KtkException;
import io.ktk.flink.state.store.InvalidStoreUrlException;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code ktk} command-line tool: looks at, reads and maintains Kartothek datasets and cubes in a
 * local directory or on S3, without Flink.
 *
 * <p>Exit codes: {@value #OK} on success; {@value #USAGE} on bad usage (unknown option, missing or
 * malformed argument, a store URL or store option that cannot work), with the mistake and a hint on
 * stderr; {@value #ERROR} on any other error,
 * with its message on stderr. The project's exceptions carry messages written for users ("Cannot
 * read dataset 'x' in file:///data/: ..."), so only the message is printed; {@code --verbose} adds
 * the stack trace.
 *
 * <p>{@link #main} runs it for a shell; {@link #run} runs it in-process with given streams.
 */
@Command(
    name = "ktk",
    mixinStandardHelpOptions = true,
    versionProvider = Ktk.Version.class,
    usageHelpAutoWidth = true,
    description = "Looks at, reads, queries and maintains Kartothek datasets and cubes (file:///dir or s3://bucket/prefix); "
        + "'ktk demo' streams a demo dataset through the Flink sink.",
    subcommands = {
      InfoCommand.class,
      StatsCommand.class,
      ReadCommand.class,
      QueryCommand.class,
      IngestCommand.class,
      ValidateCommand.class,
      GcCommand.class,
      ExpireCommand.class,
      AdoptCommand.class,
      CompactCommand.class,
      IndexCommand.class,
      CopyCommand.class,
      DeleteCommand.class,
      DemoCommand.class,
      CommandLine.HelpCommand.class
    },
    footer = {
      "",
      "Exit codes: 0 success, 1 error (message on stderr), 2 bad usage.",
      "Run 'ktk COMMAND --help' for a command's options."
    })
public final class Ktk implements Callable<Integer> {
  public static final int OK = 0;
  public static final int ERROR = 1;
  public static final int USAGE = 2;

  @Option(names = "--verbose", scope = ScopeType.INHERIT, description = "Print the stack trace of an error.")
  boolean verbose;

  @Spec CommandSpec spec;

  private final Terminal terminal;

  Ktk(Terminal terminal) {
    this.terminal = terminal;
  }

  Terminal terminal() {
    return terminal;
  }

  /** Without a command: the usage, as bad usage. */
  @Override
  public Integer call() {
    spec.commandLine().getErr().println("Missing command.");
    spec.commandLine().usage(spec.commandLine().getErr());
    return USAGE;
  }

  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(
        new BufferedWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.out), UTF_8), 1 << 16));
    PrintWriter err = new PrintWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.err), UTF_8), true);
    int code = run(out, err, Terminal.system(), args);
    out.flush();
    err.flush();
    System.exit(code);
  }

  /**
   * Runs one command line in this process and returns its exit code.
   *
   * @param out where results go (flushed before returning)
   * @param err where messages, errors and progress go
   */
  public static int run(PrintWriter out, PrintWriter err, Terminal terminal, String... args) {
    Ktk ktk = new Ktk(terminal);
    CommandLine commandLine = new CommandLine(ktk);
    commandLine.setOut(out);
    commandLine.setErr(err);
    commandLine.setCaseInsensitiveEnumValuesAllowed(true);
    commandLine.setParameterExceptionHandler(Ktk::usageError);
    commandLine.setExecutionExceptionHandler((e, cmd, parsed) -> {
      if (e instanceof ParameterException usage) {
        return usageError(usage, args);
      }
      return error(e, cmd.getErr(), isVerbose(ktk, parsed));
    });
    try {
      return commandLine.execute(args);
    } finally {
      out.flush();
      err.flush();
    }
  }

  private static boolean isVerbose(Ktk ktk, CommandLine.ParseResult parsed) {
    if (ktk.verbose) {
      return true;
    }
    for (CommandLine.ParseResult result = parsed; result != null; result = result.subcommand()) {
      if (result.hasMatchedOption("--verbose")) {
        return true;
      }
    }
    return false;
  }

  private static int usageError(ParameterException e, String[] args) {
    CommandLine command = e.getCommandLine();
    PrintWriter err = command.getErr();
    err.println(e.getMessage());
    if (!UnmatchedArgumentException.printSuggestions(e, err)) {
      err.println("Try '" + command.getCommandSpec().qualifiedName() + " --help' for more information.");
    }
    return USAGE;
  }

  private static int error(Exception e, PrintWriter err, boolean verbose) {
    Throwable cause = e instanceof UncheckedIOException && e.getCause() != null ? e.getCause() : e;
    if (cause instanceof InvalidStoreUrlException) {
      // A store URL or option that cannot work is a mistake on the command line.
      err.println(cause.getMessage());
      return USAGE;
    }
    if (cause instanceof KtkException) {
      err.println(cause.getMessage());
    } else if (cause instanceof IOException) {
      // Our stores' messages name the object and the store; others (the S3 SDK's) are shown with their kind.
      err.println(cause.getMessage() != null ? cause.getMessage() : cause.toString());
    } else {
      err.println("Unexpected error: " + cause + (verbose ? "" : " (run with --verbose for the stack trace)"));
    }
    if (verbose) {
      e.printStackTrace(err);
    }
    return ERROR;
  }

  /** The version from the jar's manifest, when there is one. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String version = Ktk.class.getPackage().getImplementationVersion();
      return new String[] {"ktk " + (version != null ? version : "(development build)")};
    }
  }
}
