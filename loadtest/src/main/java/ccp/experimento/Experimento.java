package ccp.experimento;

import ccp.carga.ActoresCarga;
import ccp.platform.cli.ConfOption;
import ccp.platform.cli.Converters;
import ccp.platform.config.Settings;
import ccp.platform.db.PgClients;
import ccp.platform.db.PgConfig;
import ccp.platform.infra.DevIssuer;
import ccp.platform.infra.PgCredentials;
import ccp.platform.kafka.KafkaConfig;
import ccp.platform.kafka.KafkaCredentials;
import io.vertx.core.Context;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.ext.web.client.WebClient;
import io.vertx.sqlclient.SqlClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code experimento}: the load and the checks of {@code bin/experiment}, which places the processes on hosts of their
 * own and injects the faults. It sends sessions and orders through every gateway for {@code --duration} (with
 * {@code --until-schedule-done}, on until the fault schedule is done and {@link #COLA_S} s more), samples every
 * process's ASR histograms, waits for the acknowledged orders' chains to end, then checks the invariants from the
 * databases and the topics, prints a table per phase (the phases cut at the faults of {@code <run-dir>/eventos.log}) and
 * {@code invariants: N checked, M violated} last, and draws {@code <run-dir>/linea.png}. Exits 1 if any was violated.
 */
@Command(name = "experimento", mixinStandardHelpOptions = true,
  description = "Load through the gateways during a fault schedule, then check the invariants and draw the timeline (bin/experiment).")
public final class Experimento implements java.util.concurrent.Callable<Integer> {

  @Option(names = "--gateway", required = true, split = ",", converter = Converters.HttpUrl.class, paramLabel = "<url>",
    description = "the gateways, comma-separated; requests go round-robin")
  List<URI> gateways;

  @Option(names = "--seguridad", required = true, split = ",", converter = Converters.HttpUrl.class, paramLabel = "<url>",
    description = "the seguridad processes, comma-separated: the vendedores' devices are registered through the first before the load")
  List<URI> seguridad;

  @Option(names = "--metrics", required = true, split = ",", converter = Converters.HttpUrl.class, paramLabel = "<url>",
    description = "every process's /metrics, comma-separated")
  List<URI> metrics;

  @Option(names = "--pg", required = true, paramLabel = "<host:port>", description = "the PostgreSQL to check, as its superuser")
  String pg;

  @Option(names = "--kafka", required = true, paramLabel = "<host:port>", description = "the broker to check, as its super user")
  String kafka;

  @Option(names = "--run-dir", required = true, paramLabel = "<dir>", description = "where eventos.log is and the report goes")
  Path runDir;

  @Option(names = "--duration", defaultValue = "60", converter = Converters.PositiveInt.class, description = "seconds of load")
  int duration;

  /** Seconds of load after the schedule's last fault has healed: the table and the timeline show the recovery. */
  static final int COLA_S = 10;
  /** A bound on the load past --duration while the schedule runs: restarts on a machine saturated by others take minutes. */
  static final int MAX_EXTRA_S = 600;

  @Option(names = "--until-schedule-done", description = "keep the load on past --duration until bin/experiment's fault"
    + " schedule is done (hecho calendario in eventos.log) and " + COLA_S + " s more, up to " + MAX_EXTRA_S
    + " s past --duration: every fault then happens under load, however long the restarts take")
  boolean hastaCalendario;

  /** When the load first saw the schedule done; the load's event loop's own. */
  private long calendarioHechoMs;

  @Option(names = "--sesiones", defaultValue = "60", converter = Converters.PositiveInt.class, description = "sessions per second")
  int sesiones;

  @Option(names = "--pedidos", defaultValue = "20", converter = Converters.PositiveInt.class, description = "orders per second")
  int pedidos;

  @Option(names = "--vendedores", defaultValue = "200", converter = Converters.PositiveInt.class)
  int vendedores;

  @Option(names = "--unknown", defaultValue = "0.05", converter = Converters.Fraction.class,
    description = "share of sessions from a device never registered")
  double unknown;

  @Option(names = "--improper", defaultValue = "0.02", converter = Converters.Fraction.class,
    description = "share of orders by read-only actors")
  double improper;

  @Option(names = "--settle", defaultValue = "90", converter = Converters.PositiveInt.class,
    description = "seconds the acknowledged orders' chains may take to end after the load")
  int settle;

  @Mixin
  ConfOption conf;

  @Override
  public Integer call() throws Exception {
    Settings settings = conf.settings();
    Path dataDir = settings.dataDir();
    String[] hostPort = pg.split(":");
    PgCredentials pgCredentials = PgCredentials.inDataDir(dataDir);
    int maxSeconds = hastaCalendario ? duration + MAX_EXTRA_S : duration;
    int reserva = ActoresCarga.reserva(pedidos, maxSeconds, improper);
    ActoresCarga.registrar(settings.with(pgCredentials.settings())
      .with(Map.of("pg.host", hostPort[0], "pg.port", Integer.parseInt(hostPort[1]))), Carga.CONSULTAS, reserva);
    Vertx vertx = Vertx.vertx();
    try {
      SqlClient sql = PgClients.pipelined(vertx, new PgConfig(hostPort[0], Integer.parseInt(hostPort[1]), settings.text("pg.database"),
        PgCredentials.SUPERUSER, pgCredentials.superuserPassword(), 2, 60_000, 5_000));
      WebClient web = WebClient.create(vertx);
      DevIssuer minter = DevIssuer.open(vertx, settings);
      Carga.registrarDispositivos(vertx, web, minter, seguridad.get(0), vendedores).await(120, TimeUnit.SECONDS);
      Map<String, Long> unidadesAntes = Invariantes.unidades(sql);
      Carga carga = new Carga(vertx, vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true), new PoolOptions().setHttp1MaxSize(64)),
        gateways, minter, vendedores, unknown, improper, reserva);
      Muestreo muestreo = new Muestreo(vertx, web, metrics);
      Context context = vertx.getOrCreateContext();
      Promise<Void> cargada = Promise.promise();
      long inicioMs = System.currentTimeMillis();
      evento(inicioMs, "inicio");
      context.runOnContext(x -> {
        muestreo.start();
        carga.run(sesiones, pedidos, duration, maxSeconds, this::calendarioTerminadoHace).onComplete(cargada);
      });
      cargada.future().await(maxSeconds + 60L, TimeUnit.SECONDS);
      evento(System.currentTimeMillis(), "fin");
      System.out.printf(Locale.ROOT, "load done: %d sessions and %d orders acknowledged; waiting up to %d s for their chains%n",
        carga.sesiones.size(), carga.pedidos.size(), settle);
      esperarCalendario();
      esperar(sql, carga);
      context.runOnContext(x -> muestreo.stop());

      Invariantes invariantes = new Invariantes(sql, KafkaConfig.client(kafka, "admin", KafkaCredentials.read(dataDir).admin()));
      invariantes.verificar(carga, unidadesAntes);
      List<Fases.Evento> eventos = Fases.leer(runDir.resolve("eventos.log"));
      System.out.printf(Locale.ROOT, "%nThe view's layout, one network namespace per process; %d sessions/s and %d orders/s offered for %d s"
          + " through %d gateways (%.0f%% unknown devices, %.0f%% improper orders)%n%n", sesiones, pedidos, carga.segundos.size(),
        gateways.size(), unknown * 100, improper * 100);
      System.out.print(Fases.tabla(Fases.cortar(eventos, inicioMs, carga.segundos.size()), carga.segundos, muestreo, inicioMs));
      System.out.printf("%nASR budgets: ASR-1 2 s, ASR-2 5 s, ASR-3 30 s, ASR-4 5 s (! over budget; reported, not counted as invariants)%n");
      System.out.print(invariantes.describeViolations());
      try {
        LineaTiempo.dibujar(runDir.resolve("linea.png"), "bin/experiment: " + sesiones + " sessions/s + " + pedidos
          + " orders/s through 2 gateways, faults shaded", carga.segundos, muestreo, eventos, inicioMs);
      } catch (Exception | Error e) {
        // A machine without fonts cannot draw text: the checks stand without the picture.
        System.out.println("timeline not drawn: " + e);
      }
      System.out.printf("invariants: %d checked, %d violated%n", invariantes.checked(), invariantes.violatedCount());
      return invariantes.violatedCount() == 0 ? 0 : 1;
    } finally {
      vertx.close().await(30, TimeUnit.SECONDS);
    }
  }

  /**
   * Whether the load may stop: without {@code --until-schedule-done}, at once; with it, once the schedule has been done
   * for {@link #COLA_S} s. Asked once a second on the load's event loop; eventos.log is a few lines.
   */
  private boolean calendarioTerminadoHace() {
    if (!hastaCalendario) return true;
    if (calendarioHechoMs == 0) calendarioHechoMs = hechoCalendario();
    return calendarioHechoMs > 0 && System.currentTimeMillis() - calendarioHechoMs >= COLA_S * 1_000L;
  }

  /** When bin/experiment wrote {@code <ms> hecho calendario}; 0 while it has not. */
  private long hechoCalendario() {
    try {
      Path log = runDir.resolve("eventos.log");
      if (!Files.exists(log)) return 0;
      return Files.readAllLines(log).stream().filter(l -> l.endsWith(" hecho calendario"))
        .mapToLong(l -> Long.parseLong(l.substring(0, l.indexOf(' ')))).findFirst().orElse(0);
    } catch (java.io.IOException | NumberFormatException e) {
      return 0;
    }
  }

  /**
   * Until bin/experiment's schedule has healed its last fault ({@code <ms> hecho calendario} in eventos.log), or
   * {@code --settle} seconds: a fault still open when the checks run (the database restarting, a partition) would be
   * outside them.
   */
  private void esperarCalendario() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(settle);
    while (System.nanoTime() < deadline) {
      if (hechoCalendario() > 0) return;
      Thread.sleep(1_000);
    }
    System.out.printf(Locale.ROOT, "the fault schedule still runs after %d s: checking anyway%n", settle);
  }

  /** Until every acknowledged order's chain has ended, or {@code --settle} seconds. */
  private void esperar(SqlClient sql, Carga carga) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(settle);
    int left = -1;
    while (System.nanoTime() < deadline) {
      try {
        left = Invariantes.sinTerminar(sql, carga.pedidos);
        if (left == 0) break;
      } catch (Exception e) {
        System.out.println("waiting for the chains: " + e);
      }
      Thread.sleep(2_000);
    }
    System.out.printf(Locale.ROOT, "chains not ended after the wait: %d%n", Math.max(left, 0));
  }

  /** The load's own start and end, beside the faults of bin/experiment. */
  private void evento(long epochMs, String tipo) throws java.io.IOException {
    Files.writeString(runDir.resolve("eventos.log"), epochMs + " " + tipo + " carga\n", StandardOpenOption.CREATE,
      StandardOpenOption.APPEND);
  }
}
