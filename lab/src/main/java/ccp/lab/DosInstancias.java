package ccp.lab;

import ccp.platform.config.PgRoles;
import ccp.platform.config.Settings;
import io.vertx.core.Vertx;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The reference's "a local lock does not coordinate several instances": this JVM and a child JVM of the same classpath
 * reserve from one PostgreSQL row at the same moment, each half of the requests, once with a lock of each process
 * around a read-then-write and once with the atomic statement. The child is the hidden command {@code lab-instancia}
 * ({@link LabInstancia}), started through the lab's own entry point ({@link LabMain}) on this JVM's classpath.
 */
final class DosInstancias {

  static final String COMANDO = "lab-instancia";
  private static final String LISTO = "lab-instancia listo";
  private static final String RESULTADO = "lab-instancia aprobadas=";
  private static final long ESPERA_HIJO_S = 120;

  enum Variante {
    LOCK_LOCAL("lock-local", "a lock of each process around SELECT, then UPDATE SET disponible = <value read> - 1"),
    ATOMICA("atomica", "the single UPDATE … SET disponible = disponible - 1 WHERE disponible >= 1");

    final String clave;
    final String descripcion;

    Variante(String clave, String descripcion) {
      this.clave = clave;
      this.descripcion = descripcion;
    }

    Estrategia crear(LabDb db, TrabajoLento trabajo) {
      return this == LOCK_LOCAL ? new PgLockLocal(db, trabajo, new LockWait()) : new PgAtomica(db, trabajo);
    }

    static Variante porClave(String clave) {
      for (Variante v : values()) if (v.clave.equals(clave)) return v;
      return null;
    }
  }

  record Resultado(Variante variante, int stock, int requests, long aprobadasAqui, long aprobadasHijo, int finalStock, double seconds) {

    long aprobadas() {
      return aprobadasAqui + aprobadasHijo;
    }

    Outcome.Consistencia consistencia() {
      return Outcome.Consistencia.of(stock, aprobadas(), requests, finalStock);
    }

    String block() {
      return String.format(Locale.ROOT, """
        Two JVMs, %s: %s
        Requests: %,d (half in each JVM), initial stock %,d
        Approved reservations: %,d (this JVM %,d, child JVM %,d)
        Final inventory: %,d
        Execution time: %.4f seconds
        Consistency errors: %s
        """, variante.clave, variante.descripcion, requests, stock, aprobadas(), aprobadasAqui, aprobadasHijo, finalStock, seconds,
        consistencia().describe());
    }
  }

  private DosInstancias() {}

  /** {@code pg} are the settings both JVMs connect with; {@code db} is this JVM's connection to the same database. */
  static Resultado correr(Settings pg, LabDb db, Variante variante, int stock, int requests, int workers, TrabajoLento trabajo) {
    Existencias existencias = new Existencias("lab-" + UUID.randomUUID().toString().substring(0, 8) + "-", 1, stock);
    String producto = existencias.id(0);
    db.sembrar(existencias);
    Process hijo = null;
    try {
      int delHijo = requests / 2;
      hijo = lanzar(pg, variante, producto, delHijo, workers, trabajo.completarMs());
      BlockingQueue<String> lineas = leer(hijo);
      db.calentar();
      esperar(lineas, LISTO, hijo);
      Writer go = new OutputStreamWriter(hijo.getOutputStream(), StandardCharsets.UTF_8);
      go.write("go\n");
      go.flush();
      long began = System.nanoTime();
      Runner.Tally aqui;
      try (Estrategia e = variante.crear(db, trabajo)) {
        aqui = Runner.execute(e, i -> producto, requests - delHijo, workers, new LongAdder());
      }
      long aprobadasHijo = Long.parseLong(esperar(lineas, RESULTADO, hijo).substring(RESULTADO.length()).trim());
      double seconds = (System.nanoTime() - began) / 1e9;
      if (aqui.firstFailure() != null) throw new IllegalStateException("this JVM's reservations failed", aqui.firstFailure());
      return new Resultado(variante, stock, requests, aqui.count(Runner.APROBADA), aprobadasHijo, db.disponible(producto), seconds);
    } catch (IOException e) {
      throw new IllegalStateException("cannot talk to the child JVM: " + e.getMessage(), e);
    } finally {
      if (hijo != null) hijo.destroy();
      db.borrar(existencias.prefijo());
    }
  }

  private static Process lanzar(Settings pg, Variante variante, String producto, int requests, int workers, double slowMs) throws IOException {
    List<String> command = new ArrayList<>(List.of(
      new File(System.getProperty("java.home"), "bin/java").getPath(), "-cp", System.getProperty("java.class.path"),
      LabMain.class.getName(), COMANDO, "--variante=" + variante.clave, "--producto=" + producto, "--requests=" + requests,
      "--workers=" + workers, "--slow-ms=" + slowMs));
    ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
    Map<String, String> env = builder.environment();
    for (String key : new String[] {"pg.host", "pg.database", PgRoles.passwordKey("lab")}) env.put(Settings.envName(key), pg.text(key));
    for (String key : new String[] {"pg.port", "pg.pool-size"}) env.put(Settings.envName(key), String.valueOf(pg.integer(key)));
    return builder.start();
  }

  /** The child's stdout, line by line, on a thread of its own: its log lines are mixed in and skipped. */
  private static BlockingQueue<String> leer(Process hijo) {
    BlockingQueue<String> lineas = new LinkedBlockingQueue<>();
    Thread lector = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(hijo.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) lineas.add(line);
      } catch (IOException ignored) {
        // the child ended; esperar reports it
      }
    }, "lab-instancia-stdout");
    lector.setDaemon(true);
    lector.start();
    return lineas;
  }

  private static String esperar(BlockingQueue<String> lineas, String prefijo, Process hijo) {
    long hasta = System.nanoTime() + TimeUnit.SECONDS.toNanos(ESPERA_HIJO_S);
    try {
      while (System.nanoTime() < hasta) {
        String line = lineas.poll(200, TimeUnit.MILLISECONDS);
        if (line != null && line.startsWith(prefijo)) return line;
        if (line == null && !hijo.isAlive() && lineas.isEmpty()) {
          throw new IllegalStateException("the child JVM exited with status " + hijo.exitValue() + " before '" + prefijo + "'");
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    throw new IllegalStateException("the child JVM did not say '" + prefijo + "' within " + ESPERA_HIJO_S + " s");
  }

  /** The child: connects, says it is ready, waits for the parent's go, reserves its half and prints its approvals. */
  static void instancia(Settings settings, Variante variante, String producto, int requests, int workers, TrabajoLento trabajo)
    throws IOException {
    Vertx vertx = Vertx.vertx();
    try (LabDb db = LabDb.abrir(vertx, settings); Estrategia e = variante.crear(db, trabajo)) {
      db.calentar();
      System.out.println(LISTO);
      System.out.flush();
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
      Runner.Tally tally = Runner.execute(e, i -> producto, requests, workers, new LongAdder());
      if (tally.firstFailure() != null) throw new IllegalStateException("reservations failed", tally.firstFailure());
      System.out.println(RESULTADO + tally.count(Runner.APROBADA));
      System.out.flush();
    } finally {
      vertx.close().await();
    }
  }
}
