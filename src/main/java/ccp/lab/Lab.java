package ccp.lab;

import ccp.Main;
import ccp.etapas.ReservasCalientes;
import ccp.platform.config.Settings;
import ccp.platform.db.Migrations;
import ccp.platform.infra.EmbeddedPg;
import io.vertx.core.Vertx;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * {@code lab}: the critical-section lab of seed 000. Runs every strategy on the seed's simulation (or the workload the
 * flags describe), prints the seed's report block for each and a comparison table, measures throughput against the
 * number of workers, shows two JVMs on one PostgreSQL stock, and writes CSV and PNG charts into a report folder.
 * PostgreSQL is the configured one ({@code pg.*}) or an embedded one of its own under {@code <data.dir>/lab-postgres}.
 */
public final class Lab {

  private static final Set<String> FLAGS = Set.of("conf", "stock", "requests", "workers", "products", "slow-ms", "coarse-ms",
    "timeout-ms", "permits", "strategies", "sweep", "budget-s", "multi", "etapa", "out");
  /** The multi-instance section uses the seed's test numbers: stock 1,000, 5,000 requests, 50 workers per JVM. */
  private static final int MULTI_STOCK = 1_000;
  private static final int MULTI_REQUESTS = 5_000;
  private static final int MULTI_WORKERS = 50;
  /** The Inventario stage section: two stage instances, as many reservations in flight as a consumer allows. */
  private static final int ETAPA_INSTANCIAS = 2;

  private Lab() {}

  public static void run(Settings settings, Main.Arguments arguments) throws Exception {
    if (arguments.command().equals(DosInstancias.COMANDO)) {
      DosInstancias.instancia(settings, arguments);
      return;
    }
    arguments.allowOnly(FLAGS);
    Flags flags = new Flags(arguments);
    Workload semilla = Workload.SEMILLA;
    List<Double> amplio = flags.list("coarse-ms", "10,10,5,5", Double::valueOf, "four milliseconds: validation,query,audit,notification");
    if (amplio.size() != 4 || amplio.stream().anyMatch(v -> v < 0 || v > 60_000)) {
      throw new ccp.platform.config.ConfigException("--coarse-ms='" + arguments.flag("coarse-ms", "") + "' is invalid (expected four "
        + "milliseconds from 0 to 60000: validation,query,audit,notification)");
    }
    TrabajoLento trabajo = new TrabajoLento(flags.millis("slow-ms", semilla.trabajo().completarMs()), amplio.get(0), amplio.get(1),
      amplio.get(2), amplio.get(3));
    Workload carga = new Workload(flags.positive("stock", semilla.stock()), flags.positive("requests", semilla.requests()),
      flags.positive("workers", semilla.workers()), flags.positive("products", semilla.products()), trabajo);
    Duration timeout = Duration.ofMillis(flags.positive("timeout-ms", 500));
    int permits = flags.positive("permits", 25);
    List<Catalogo> estrategias = flags.list("strategies", String.join(",", Catalogo.claves()), Catalogo::porClave,
      "a comma-separated list of " + Catalogo.claves());
    List<Integer> barrido = flags.list("sweep", "1,2,4,8,16,32,64,128,256", s -> {
      int n = Integer.parseInt(s);
      return n > 0 && n <= 4096 ? n : null;
    }, "worker counts from 1 to 4096, comma-separated, or none");
    double budget = flags.positive("budget-s", 20);
    boolean multi = flags.bool("multi", true);
    boolean etapa = flags.bool("etapa", true);
    Path out = Path.of(flags.text("out", settings.dataDir().resolve("lab")
      .resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))).toString()));

    boolean pg = multi || etapa || estrategias.stream().anyMatch(e -> e.enPg);
    EmbeddedPg embedded = pg && settings.embeddedPostgres()
      ? EmbeddedPg.start(settings.dataDir().resolve("lab-postgres"), settings.text("pg.database"), settings.text("pg.user"), 0) : null;
    Settings pgSettings = embedded == null ? settings : settings.with(Map.of("pg.host", "127.0.0.1", "pg.port", embedded.port()));
    Vertx vertx = Vertx.vertx();
    try (Progress progress = Progress.toStderr(); LabDb db = pg ? LabDb.abrir(vertx, pgSettings) : null) {
      Files.createDirectories(out);
      new Lab.Sesion(vertx, new Bench(vertx, db, timeout, permits, progress), progress, out)
        .correr(carga, estrategias, barrido, budget, multi ? pgSettings : null, etapa ? pgSettings : null, db);
    } finally {
      vertx.close().await();
      if (embedded != null) embedded.close();
    }
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
      if (etapaPg != null) print(informe, etapaInventario(etapaPg, db, carga));
      print(informe, "Report folder: " + out.toAbsolutePath());
      Files.writeString(out.resolve("informe.txt"), informe);
    }

    /**
     * The lab's answer applied: the Inventario stage's own code on one hot product, combining the reservations pending
     * while a statement is in flight versus one statement per order, in the same run (combining first, so that a
     * warmer JVM can only favour the other). Stock is the workload's, requests twice that.
     */
    private String etapaInventario(Settings pgSettings, LabDb db, Workload carga) throws IOException {
      Migrations.migrate(pgSettings, List.of("inventario"));
      int enVuelo = pgSettings.integer("kafka.consumer.max-in-flight");
      int reservas = 2 * carga.stock();
      String prefijo = "LAB-" + UUID.randomUUID().toString().substring(0, 8) + "-";
      List<ReservasCalientes.Medida> medidas = new ArrayList<>();
      for (int loteMax : new int[] {pgSettings.integer("inventario.lote-max"), 1}) {
        progress.note("Inventario stage, lote-max " + loteMax + ", " + reservas + " reservations…");
        medidas.add(ReservasCalientes.medir(vertx, db.sentencias(), prefijo + loteMax, carga.stock(), reservas, loteMax,
          ETAPA_INSTANCIAS, enVuelo));
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
