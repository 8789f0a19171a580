package ccp.support;

import ccp.platform.cli.Cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A jar's main class run in its own JVM, as a person runs it: its exit status and what it wrote on stderr. */
public record CommandRun(int status, String stderr) {

  public static CommandRun of(Class<?> main, String args, Map<String, String> env) throws Exception {
    return of(main, args, env, Duration.ofSeconds(60));
  }

  /** As {@link #of(Class, String, Map)}, for a command given {@code limit} to end (one that reaches for a network). */
  public static CommandRun of(Class<?> main, String args, Map<String, String> env, Duration limit) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(Jvm.command(main, args.trim().split("\\s+")));
    builder.environment().putAll(env);
    // Only stderr is read, after the exit: a stdout pipe nobody drains would block a chatty child.
    builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    Process process = builder.start();
    if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(main.getSimpleName() + " " + args + " did not end within " + limit.toSeconds() + " s");
    }
    return new CommandRun(process.exitValue(), new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip());
  }

  /** The commands run in this JVM through {@link Cli#execute}, with what they write on stderr captured. */
  public static CommandRun inProcess(String[] args, Object... commands) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream original = System.err;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      int status = Cli.execute(args, commands);
      return new CommandRun(status, err.toString(StandardCharsets.UTF_8).strip());
    } finally {
      System.setErr(original);
    }
  }

  /** {@code KEY=value} assignments separated by spaces, or nothing when blank. */
  public static Map<String, String> env(String assignments) {
    if (assignments == null || assignments.isBlank()) return Map.of();
    Map<String, String> env = new HashMap<>();
    for (String assignment : assignments.trim().split("\\s+")) {
      String[] kv = assignment.split("=", 2);
      env.put(kv[0], kv[1]);
    }
    return env;
  }
}
