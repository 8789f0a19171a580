package ccp.carga.suelo;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The driver's side of the floor: {@link Suelo} started in a JVM of its own, from this JVM's classpath, with a fresh
 * data directory that is deleted when it stops. Its output goes to {@code suelo.log} in that directory, shown when it
 * fails to start.
 */
public final class ProcesoSuelo implements AutoCloseable {

  private static final long START_MS = 180_000;

  private final Process process;
  private final Path dir;
  private final int port;

  private ProcesoSuelo(Process process, Path dir, int port) {
    this.process = process;
    this.dir = dir;
    this.port = port;
  }

  /** Blocks until the floor of {@code camino} ("sesiones" or "pedidos") answers; {@code conf}: the system's file. */
  public static ProcesoSuelo start(String camino, String conf, int vendedores) throws Exception {
    Path dir = Files.createTempDirectory("ccp-suelo-");
    Path log = dir.resolve("suelo.log");
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    // The -XX options the driver was given (JIT, GC) reach the floor too: the test suite starts both C1-only.
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream().filter(a -> a.startsWith("-XX:")).forEach(command::add);
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), Suelo.class.getName(), camino,
      dir.resolve("data").toString(), conf, Integer.toString(vendedores)));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_MS);
    while (System.nanoTime() < deadline) {
      List<String> lines = Files.readAllLines(log);
      for (String line : lines) {
        if (line.startsWith(Suelo.LISTO)) return new ProcesoSuelo(process, dir, Integer.parseInt(line.substring(Suelo.LISTO.length()).trim()));
      }
      if (!process.isAlive()) break;
      Thread.sleep(200);
    }
    process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    List<String> lines = Files.readAllLines(log);
    String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    delete(dir);
    throw new IllegalStateException("the floor did not start: " + tail);
  }

  public URI uri() {
    return URI.create("http://127.0.0.1:" + port);
  }

  public long pid() {
    return process.pid();
  }

  /** Where its PostgreSQL writes its postmaster's pid, for the CPU it spends. */
  public Path postmasterPid() {
    return dir.resolve("data/postgres/data/postmaster.pid");
  }

  @Override
  public void close() throws Exception {
    process.getOutputStream().close();
    if (!process.waitFor(60, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    delete(dir);
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    }
  }
}
