package ccp.platform.cli;

import ccp.platform.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * The command line of every entry point ({@code ccp.Main} in the container image, {@code ccp.laptop.Laptop} in
 * {@code target/reto2-ccp.jar}, {@code ccp.lab.LabMain}): picocli subcommands under one name, {@code run} when the
 * first argument is a flag or absent (so {@code --role=gestor} alone runs roles), and the contract scripts rely on: a
 * bad command, flag or configuration value exits with status 2 and one line on stderr that names it; a failure to
 * start exits 1.
 */
public final class Cli {

  private static final Logger LOG = LoggerFactory.getLogger(Cli.class);
  private static final String DEFAULT_COMMAND = "run";

  private Cli() {}

  /** The jar's root command: only a name and its subcommands. */
  @Command(name = "reto2-ccp", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = "Reto 2 CCP: the roles of the concurrency view, and their tools.")
  static final class Root implements Runnable {
    @Override
    public void run() {
      throw new CommandLine.ParameterException(new CommandLine(this), "a command is needed");
    }
  }

  /** The project's version, which Maven writes into {@code ccp-version.properties} when it builds the jar. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
      Properties properties = new Properties();
      try (InputStream in = Cli.class.getResourceAsStream("/ccp-version.properties")) {
        if (in == null) throw new IOException("ccp-version.properties is not on the class path");
        properties.load(in);
      }
      return new String[] {"reto2-ccp " + properties.getProperty("version")};
    }
  }

  /** Runs the command {@code args} name and exits when it fails; a command that keeps serving returns and lives on. */
  public static void main(String[] args, Object... subcommands) {
    int code = execute(args, subcommands);
    if (code != 0) System.exit(code);
  }

  public static int execute(String[] args, Object... subcommands) {
    CommandLine line = new CommandLine(new Root());
    for (Object subcommand : subcommands) line.addSubcommand(subcommand);
    line.setParameterExceptionHandler((e, ignored) -> fail(usage(e, line)));
    line.setExecutionExceptionHandler((e, ignored, result) -> {
      if (e instanceof ConfigException) return fail(e.getMessage());
      LOG.error("Start-up failed", e);
      System.err.println("reto2-ccp: start-up failed: " + e.getMessage());
      return 1;
    });
    return line.execute(withDefaultCommand(args, line));
  }

  private static String[] withDefaultCommand(String[] args, CommandLine line) {
    boolean help = args.length > 0 && List.of("-h", "--help", "-V", "--version").contains(args[0]);
    if (help || (args.length > 0 && !args[0].startsWith("-")) || !line.getSubcommands().containsKey(DEFAULT_COMMAND)) return args;
    List<String> withRun = new ArrayList<>(List.of(DEFAULT_COMMAND));
    withRun.addAll(Arrays.asList(args));
    return withRun.toArray(String[]::new);
  }

  private static String usage(CommandLine.ParameterException e, CommandLine root) {
    if (e instanceof CommandLine.UnmatchedArgumentException unmatched && e.getCommandLine() == root) {
      String valid = root.getSubcommands().entrySet().stream()
        .filter(c -> !c.getValue().getCommandSpec().usageMessage().hidden())
        .map(Map.Entry::getKey).collect(Collectors.joining(", "));
      return "unknown command '" + unmatched.getUnmatched().get(0) + "' (valid: " + valid + ")";
    }
    String name = e.getCommandLine().getCommandName();
    return (e.getCommandLine() == root ? "" : name + ": ") + e.getMessage() + " (see " + name + " --help)";
  }

  private static int fail(String message) {
    System.err.println("reto2-ccp: " + message.lines().findFirst().orElse(""));
    return 2;
  }
}
