package ccp.carga;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.stream.Stream;

/**
 * The CPU time spent so far, by who spent it: the scraped system's JVM ({@code process_cpu_time_ns_total}, its embedded
 * broker included), the embedded PostgreSQL when it runs on this machine, and this driver's JVM. Two readings, one
 * before the load and one after its last reaction, give each request's cost in CPU (per session
 * and per order), beside the driver's own: the driver shares the cores it measures.
 *
 * @param postgresSeconds empty when no PostgreSQL of this machine's data directory runs (an external server)
 */
record Cpu(OptionalDouble systemSeconds, OptionalDouble postgresSeconds, double driverSeconds) {

  /** Linux reports process times in clock ticks of USER_HZ, 100 a second on every architecture Java runs on. */
  private static final double TICKS_PER_SECOND = 100;
  private static final String SYSTEM_SERIES = "process_cpu_time_ns_total";

  /** Now: the system's time as {@code scrape} (its {@code /metrics}, just read) states it, the others' as read here. */
  static Cpu now(String scrape, Path postmasterPid) {
    return new Cpu(systemIn(scrape), postgresOf(postmasterPid), driverNow());
  }

  /** Now: process {@code pid}'s time (the floor's JVM, its broker included) and its PostgreSQL's, as read here. */
  static Cpu ofProcess(long pid, Path postmasterPid) {
    String[] stat = stat(Path.of("/proc", Long.toString(pid), "stat"));
    OptionalDouble own = stat == null ? OptionalDouble.empty()
      : OptionalDouble.of((field(stat, 14) + field(stat, 15) + field(stat, 16) + field(stat, 17)) / TICKS_PER_SECOND);
    return new Cpu(own, postgresOf(postmasterPid), driverNow());
  }

  /** What was spent from {@code before} to this reading. */
  Cpu since(Cpu before) {
    return new Cpu(minus(systemSeconds, before.systemSeconds), minus(postgresSeconds, before.postgresSeconds),
      driverSeconds - before.driverSeconds);
  }

  /** E.g. "1.28 ms per session: system 0.90 ms, PostgreSQL 0.38 ms; the driver 0.38 ms (in all 37.6 s, 15.8 s, 16.0 s)". */
  String perRequest(long requests, String what) {
    if (requests <= 0) return "no " + what + " to share it over";
    double own = systemSeconds.orElse(0) + postgresSeconds.orElse(0);
    return String.format(Locale.ROOT, "%.2f ms per %s: system %s, PostgreSQL %s; the driver %.2f ms (in all %s, %s, %.1f s)",
      1000 * own / requests, what, per(systemSeconds, requests, "not scraped"), per(postgresSeconds, requests, "not on this machine"),
      1000 * driverSeconds / requests, total(systemSeconds), total(postgresSeconds), driverSeconds);
  }

  /** The system's and its PostgreSQL's milliseconds per request; empty when the system's time is unknown. */
  OptionalDouble msPer(long requests) {
    return systemSeconds.isEmpty() || requests <= 0 ? OptionalDouble.empty()
      : OptionalDouble.of(1000 * (systemSeconds.getAsDouble() + postgresSeconds.orElse(0)) / requests);
  }

  static OptionalDouble systemIn(String scrape) {
    double nanos = 0;
    boolean found = false;
    for (String line : scrape.split("\n")) {
      if (!line.startsWith(SYSTEM_SERIES + " ") && !line.startsWith(SYSTEM_SERIES + "{")) continue;
      String[] parts = line.trim().split(" ");
      nanos += Double.parseDouble(parts[parts.length - 1]);
      found = true;
    }
    return found ? OptionalDouble.of(nanos / 1e9) : OptionalDouble.empty();
  }

  /**
   * The server whose postmaster's pid heads {@code postmasterPid}: the postmaster's own time, its reaped children's
   * (backends that ended) and its live children's (the backends and auxiliary processes). Empty when there is no such
   * file or process here.
   */
  static OptionalDouble postgresOf(Path postmasterPid) {
    try {
      List<String> lines = Files.exists(postmasterPid) ? Files.readAllLines(postmasterPid) : List.of();
      if (lines.isEmpty() || !lines.get(0).trim().matches("[0-9]{1,10}")) return OptionalDouble.empty();
      long pid = Long.parseLong(lines.get(0).trim());
      String[] postmaster = stat(Path.of("/proc", Long.toString(pid), "stat"));
      if (postmaster == null) return OptionalDouble.empty();
      long ticks = field(postmaster, 14) + field(postmaster, 15) + field(postmaster, 16) + field(postmaster, 17);
      try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
        ticks += processes.filter(process -> process.getFileName().toString().matches("[0-9]+"))
          .map(process -> stat(process.resolve("stat")))
          .filter(child -> child != null && field(child, 4) == pid)
          .mapToLong(child -> field(child, 14) + field(child, 15))
          .sum();
      }
      return OptionalDouble.of(ticks / TICKS_PER_SECOND);
    } catch (IOException | UncheckedIOException e) {
      return OptionalDouble.empty();
    }
  }

  private static double driverNow() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
  }

  /**
   * The fields of a {@code /proc/<pid>/stat} from the third (state) on, for {@link #field}; null when the process is
   * gone. The command name before them, in parentheses, may hold spaces and parentheses itself: they start after its
   * last ')'. Read in one buffered read, as every file of {@code /proc} should be (see {@code FreePorts}).
   */
  private static String[] stat(Path file) {
    try {
      String text = Files.readAllLines(file).get(0);
      return text.substring(text.lastIndexOf(')') + 2).trim().split(" ");
    } catch (IOException | RuntimeException gone) {
      return null;
    }
  }

  /** Field {@code n} of proc(5)'s numbering (1: pid, 2: comm, 3: state, …). */
  private static long field(String[] fromThird, int n) {
    return Long.parseLong(fromThird[n - 3]);
  }

  private static OptionalDouble minus(OptionalDouble after, OptionalDouble before) {
    return after.isPresent() && before.isPresent() ? OptionalDouble.of(after.getAsDouble() - before.getAsDouble()) : OptionalDouble.empty();
  }

  private static String per(OptionalDouble seconds, long requests, String otherwise) {
    return seconds.isPresent() ? String.format(Locale.ROOT, "%.2f ms", 1000 * seconds.getAsDouble() / requests) : otherwise;
  }

  private static String total(OptionalDouble seconds) {
    return seconds.isPresent() ? String.format(Locale.ROOT, "%.1f s", seconds.getAsDouble()) : "—";
  }
}
