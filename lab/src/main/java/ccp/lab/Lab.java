package ccp.lab;

import ccp.embedded.EmbeddedPg;
import ccp.platform.cli.ConfOption;
import ccp.platform.cli.Converters;
import ccp.platform.config.ConfigException;
import ccp.platform.config.PgRoles;
import ccp.platform.config.Settings;
import ccp.platform.db.Migrations;
import ccp.platform.db.PgClients;
import ccp.platform.db.PgConfig;
import ccp.platform.infra.PgCredentials;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.SqlClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;

/**
 * {@code lab}: the critical-section lab, answered in Java after its reference in Python (its strategies, simulation
 * and published figure). Runs every strategy on the reference's simulation (or the workload the
 * options describe), prints the reference's report block for each and a comparison table, measures throughput against the
 * number of workers, shows two JVMs on one PostgreSQL stock, and writes CSV and PNG charts into a report folder.
 * PostgreSQL is the configured one ({@code pg.*}) or an embedded one of its own under {@code <data.dir>/lab-postgres}.
 */
@Command(name = "lab", mixinStandardHelpOptions = true, sortOptions = false,
  description = "Run the critical-section lab: every strategy on one workload, side by side, against the critical-section lab's reference (Python), and a report folder.")
public final class Lab implements Callable<Integer> {

  /** The multi-instance section uses the reference's test numbers: stock 1,000, 5,000 requests, 50 workers per JVM. */
  private static final int MULTI_STOCK = 1_000;
  private static final int MULTI_REQUESTS = 5_000;
  private static final int MULTI_WORKERS = 50;
  /** The Inventario stage section: two stage instances, as many reservations in flight as a consumer allows. */
  private static final int ETAPA_INSTANCIAS = 2;
  private static final int MAX_SWEEP_WORKERS = 4096;

  @Option(names = "--stock", paramLabel = "<units>", converter = Converters.PositiveInt.class,
    description = "initial stock, split evenly over the products (default: ${DEFAULT-VALUE}, the reference's)")
  int stock = Workload.REFERENCIA.stock();

  @Option(names = "--requests", paramLabel = "<n>", converter = Converters.PositiveInt.class,
    description = "reservations of 1 unit (default: ${DEFAULT-VALUE}, the reference's)")
  int requests = Workload.REFERENCIA.requests();

  @Option(names = "--workers", paramLabel = "<threads>", converter = Converters.PositiveInt.class,
    description = "worker threads (default: ${DEFAULT-VALUE}, the reference's)")
  int workers = Workload.REFERENCIA.workers();

  @Option(names = "--products", paramLabel = "<n>", converter = Converters.PositiveInt.class,
    description = "product ids; request i goes to product i mod products (default: ${DEFAULT-VALUE}, one hot product)")
  int products = Workload.REFERENCIA.products();

  @Option(names = "--slow-ms", paramLabel = "<ms>", converter = Converters.Millis.class,
    description = "slow work after the critical section, outside the narrow locks (default: ${DEFAULT-VALUE})")
  double slowMs = Workload.REFERENCIA.trabajo().completarMs();

  @Option(names = "--coarse-ms", paramLabel = "<ms>", split = ",", defaultValue = "10,10,5,5", converter = Converters.Millis.class,
    description = "validation,query,audit,notification: the slow work inside the coarse lock (default: ${DEFAULT-VALUE})")
  List<Double> coarseMs;

  @Option(names = "--timeout-ms", paramLabel = "<ms>", converter = Converters.PositiveInt.class,
    description = "con-timeout's tryLock patience (default: ${DEFAULT-VALUE})")
  int timeoutMs = 500;

  @Option(names = "--permits", paramLabel = "<n>", converter = Converters.PositiveInt.class,
    description = "semaforo's permits for the slow call (default: ${DEFAULT-VALUE})")
  int permits = 25;

  @Option(names = "--strategies", paramLabel = "<strategy>", split = ",", converter = Opciones.PorClave.class,
    completionCandidates = Opciones.Claves.class, description = "the strategies to run, of: ${COMPLETION-CANDIDATES} (default: all)")
  List<Catalogo> estrategias = new ArrayList<>(List.of(Catalogo.values()));

  @Option(names = "--sweep", paramLabel = "<n,n,...|none>", defaultValue = "1,2,4,8,16,32,64,128,256",
    description = "worker counts, 1 to " + MAX_SWEEP_WORKERS + ", for throughput against workers, or none (default: ${DEFAULT-VALUE})")
  String sweep;

  @Option(names = "--budget-s", paramLabel = "<seconds>", converter = Converters.PositiveInt.class,
    description = "a strategy whose run would take longer runs a slice and says so; a sweep point gets a tenth (default: ${DEFAULT-VALUE})")
  int budgetS = 20;

  @Option(names = "--multi", paramLabel = "true|false", arity = "1", description = "the two-JVM section (default: ${DEFAULT-VALUE})")
  boolean multi = true;

  @Option(names = "--etapa", paramLabel = "true|false", arity = "1",
    description = "the Inventario stage's own reservation, combining versus one statement per order (default: ${DEFAULT-VALUE})")
  boolean etapa = true;

  @Option(names = "--out", paramLabel = "<dir>", description = "the report folder (default: <data.dir>/lab/<yyyyMMdd-HHmmss>)")
  Path out;

  @Mixin
  ConfOption conf;

  @Override
  public Integer call() throws Exception {
    correr(conf.settings());
    return 0;
  }

  /** The run on {@code settings}, once picocli has set the options; the tests pass the shared infrastructure's. */
  void correr(Settings settings) throws Exception {
    if (coarseMs.size() != 4) {
      throw new ConfigException("--coarse-ms takes four milliseconds (validation,query,audit,notification), not " + coarseMs.size());
    }
    TrabajoLento trabajo = new TrabajoLento(slowMs, coarseMs.get(0), coarseMs.get(1), coarseMs.get(2), coarseMs.get(3));
    Workload carga = new Workload(stock, requests, workers, products, trabajo);
    List<Integer> barrido = barrido();
    Path folder = out != null ? out : settings.dataDir().resolve("lab")
      .resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    if (folder.toString().isBlank()) throw new ConfigException("--out needs a folder");

    boolean pg = multi || etapa || estrategias.stream().anyMatch(e -> e.enPg);
    PgCredentials credentials = pg && settings.embeddedPostgres() ? PgCredentials.inDataDir(settings.dataDir()) : null;
    EmbeddedPg embedded = credentials == null ? null : EmbeddedPg.start(settings.dataDir().resolve("lab-postgres"),
      settings.text("pg.database"), new EmbeddedPg.Access(credentials.superuserPassword(), credentials.logins(), PgRoles.bootstrapSql()),
      0, EmbeddedPg.Durability.PROCESS_CRASH_ONLY);
    Settings pgSettings = embedded == null ? settings : settings.with(credentials.settings())
      .with(Map.of("pg.host", "127.0.0.1", "pg.port", embedded.port()));
    Vertx vertx = Vertx.vertx();
    try (Progress progress = Progress.toStderr(); LabDb db = pg ? LabDb.abrir(vertx, pgSettings) : null) {
      Files.createDirectories(folder);
      new Sesion(vertx, new Bench(vertx, db, Duration.ofMillis(timeoutMs), permits, progress), progress, folder)
        .correr(carga, estrategias, barrido, budgetS, multi ? pgSettings : null, etapa ? pgSettings : null, db);
    } finally {
      vertx.close().await();
      if (embedded != null) embedded.close();
    }
  }

  /** {@code none}, or worker counts: a list picocli cannot split when one word stands for the empty list. */
  private List<Integer> barrido() {
    if (sweep.trim().equals("none")) return List.of();
    try {
      List<Integer> counts = Arrays.stream(sweep.split(",", -1)).map(String::trim).map(Integer::valueOf).toList();
      if (counts.stream().allMatch(n -> n > 0 && n <= MAX_SWEEP_WORKERS)) return counts;
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new ConfigException("--sweep='" + sweep + "' must be worker counts from 1 to " + MAX_SWEEP_WORKERS
      + ", comma-separated, or none");
  }

  /** One lab run: what it printed goes to stdout and, at the end, to {@code informe.txt}. */
  private record Sesion(Vertx vertx, Bench bench, Progress progress, Path out) {

    void correr(Workload carga, List<Catalogo> estrategias, List<Integer> barrido, double budget, Settings multiPg, Settings etapaPg,
                LabDb db) throws IOException {
      StringBuilder informe = new StringBuilder();
      List<Outcome> outcomes = new ArrayList<>();
      for (Catalogo e : estrategias) {
        Outcome o = acotado(e, carga, budget);
        outcomes.add(o);
        print(informe, o.block());
      }
      print(informe, "Comparison (" + carga.requests() + " requests, " + carga.workers() + " workers, " + carga.products()
        + " product(s), slow work " + carga.trabajo().completarMs() + " ms outside / " + carga.trabajo().amplioMs() + " ms inside the coarse lock):\n"
        + Informe.tabla(outcomes));
      print(informe, Informe.razones(outcomes, carga));
      Informe.csvEstrategias(out.resolve("estrategias.csv"), outcomes);
      Graficas.estrategias(out.resolve("estrategias.png"), outcomes);

      if (!barrido.isEmpty()) {
        List<Outcome> puntos = new ArrayList<>();
        for (Catalogo e : estrategias) {
          for (int workers : barrido) puntos.add(acotado(e, carga.withWorkers(workers), budget / 10));
        }
        print(informe, "Throughput (ops/s) against worker threads, each point bounded to about " + budget / 10 + " s:\n"
          + Informe.tablaTrabajadores(puntos));
        Informe.csvEstrategias(out.resolve("trabajadores.csv"), puntos);
        Graficas.trabajadores(out.resolve("trabajadores.png"), Informe.porEstrategia(puntos));
      }

      if (multiPg != null) {
        List<DosInstancias.Resultado> resultados = new ArrayList<>();
        for (DosInstancias.Variante v : DosInstancias.Variante.values()) {
          progress.note("two JVMs, " + v.clave + ", " + MULTI_REQUESTS + " requests…");
          DosInstancias.Resultado r = DosInstancias.correr(multiPg, db, v, MULTI_STOCK, MULTI_REQUESTS, MULTI_WORKERS, carga.trabajo());
          resultados.add(r);
          print(informe, r.block());
        }
        Informe.csvInstancias(out.resolve("dos-instancias.csv"), resultados);
      }
      if (etapaPg != null) print(informe, etapaInventario(etapaPg, carga));
      print(informe, "Report folder: " + out.toAbsolutePath());
      Files.writeString(out.resolve("informe.txt"), informe);
    }

    /**
     * The lab's answer applied: the Inventario stage's own code on one hot product, combining the reservations pending
     * while a statement is in flight versus one statement per order, in the same run (combining first, so that a
     * warmer JVM can only favour the other). Stock is the workload's, requests twice that.
     */
    private String etapaInventario(Settings pgSettings, Workload carga) throws IOException {
      // The stage's own schema, as its own role, as the system runs it.
      PgConfig inventario = PgConfig.of(pgSettings, "inventario");
      Migrations.migrate(inventario, pgSettings.flag("demo.seed"), List.of("inventario"));
      SqlClient sql = PgClients.pipelined(vertx, inventario);
      int enVuelo = pgSettings.integer("kafka.consumer.max-in-flight");
      int reservas = 2 * carga.stock();
      String prefijo = "LAB-" + UUID.randomUUID().toString().substring(0, 8) + "-";
      List<ReservasCalientes.Medida> medidas = new ArrayList<>();
      try {
        for (int loteMax : new int[] {pgSettings.integer("inventario.lote-max"), 1}) {
          progress.note("Inventario stage, lote-max " + loteMax + ", " + reservas + " reservations…");
          medidas.add(ReservasCalientes.medir(vertx, sql, prefijo + loteMax, carga.stock(), reservas, loteMax,
            ETAPA_INSTANCIAS, enVuelo));
        }
      } finally {
        sql.close().await();
      }
      StringBuilder texto = new StringBuilder(String.format(Locale.ROOT, "Inventario stage (ccp.etapas.Inventario): one hot product, "
        + "stock %,d, %,d reservations of 1 from %d stage instances, up to %,d in flight each:%n", carga.stock(), reservas,
        ETAPA_INSTANCIAS, enVuelo));
      medidas.forEach(m -> texto.append("  ").append(m.linea()).append('\n'));
      texto.append(String.format(Locale.ROOT, "  combining / one statement per order: x%.1f%n",
        medidas.get(0).porSegundo() / medidas.get(1).porSegundo()));
      Informe.csvEtapa(out.resolve("etapa-inventario.csv"), medidas);
      return texto.toString().stripTrailing();
    }

    /** Runs the workload, or a slice of it sized to {@code budget} seconds when the whole would take longer. */
    private Outcome acotado(Catalogo e, Workload carga, double budget) {
      double estimated = carga.estimatedSeconds(e.serialMs(carga));
      if (estimated <= budget) return bench.run(e, carga, "");
      Workload slice = carga.slice(budget / estimated);
      String tramo = String.format(Locale.ROOT, "%.2f %% of the workload (%,d requests, stock %,d, the same share approved); "
        + "the whole would take about %s", 100.0 * slice.requests() / carga.requests(), slice.requests(), slice.stock(), duracion(estimated));
      return bench.run(e, slice, tramo);
    }

    private static String duracion(double seconds) {
      return seconds < 120 ? String.format(Locale.ROOT, "%.0f s", seconds) : String.format(Locale.ROOT, "%.0f min", seconds / 60);
    }

    private static void print(StringBuilder informe, String text) {
      if (text.isEmpty()) return;
      System.out.println(text);
      informe.append(text).append('\n');
    }
  }
}
