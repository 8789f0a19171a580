package ccp.carga.suelo;

import ccp.app.KafkaAccess;
import ccp.embedded.EmbeddedKafka;
import ccp.embedded.EmbeddedPg;
import ccp.embedded.FreePorts;
import ccp.platform.config.ConfigLoader;
import ccp.platform.config.Settings;
import ccp.platform.db.PgClients;
import ccp.platform.db.PgConfig;
import ccp.platform.infra.Infrastructure;
import ccp.platform.infra.LocalServers;
import ccp.platform.kafka.KafkaConfig;
import ccp.platform.kafka.KafkaCredentials;
import ccp.platform.kafka.Topics;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.SqlClient;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.Supplier;
import java.util.concurrent.TimeUnit;

/**
 * The floor of a load: a minimal Vert.x program that does a path's I/O and nothing else — no tokens, metrics, admission
 * or idempotency — so that the system's rate and CPU can be read as ratios to it, measured in the same run. It runs in
 * a JVM of its own, on an embedded Kafka broker and PostgreSQL of its own, started from a fresh data directory with the
 * system's settings: the same durability, topics and partitions, login roles and pool sizes, and its broker inside its
 * JVM as the all-in-one's is inside the system's. Its clients are the system's: the pipelining SQL client, and the
 * producer and consumer settings of the roles.
 * <p>
 * {@code Suelo <sesiones|pedidos> <data dir> <conf file> <vendedores>}; prints {@code suelo-listo <port>} once it
 * answers, and stops when its standard input closes.
 */
public final class Suelo {

  /** The line that says the floor answers, and on which port. */
  public static final String LISTO = "suelo-listo ";

  private static final LocalServers EMBEDDED = new LocalServers(
    (dir, database, access, port, durable) -> {
      LocalServers.PgAccess logins = access.call();
      return LocalServers.loopback(EmbeddedPg.start(dir, database,
        new EmbeddedPg.Access(logins.superuserPassword(), logins.logins(), logins.bootstrapSql()), port,
        durable ? EmbeddedPg.Durability.DURABLE : EmbeddedPg.Durability.PROCESS_CRASH_ONLY), EmbeddedPg::port);
    },
    (dir, port, adminPassword, users) -> LocalServers.loopback(EmbeddedKafka.start(dir, port, adminPassword, users), EmbeddedKafka::port));

  private static final Buffer SESION = Buffer.buffer("{\"huella\":\"casa-vendedor-1\"}");
  private static final Buffer PEDIDO = Buffer.buffer(
    "{\"tendero\":\"T-1\",\"lineas\":[{\"producto\":\"P-1\",\"cantidad\":2},{\"producto\":\"P-17\",\"cantidad\":1}]}");

  private Suelo() {}

  /**
   * Exits when done, whatever threads are left: vertx-kafka-client's consumer thread outlives a close that completes
   * while Vert.x itself is closing, and would keep this JVM alive until the driver kills it a minute later.
   */
  public static void main(String[] args) {
    try {
      run(args);
    } catch (Throwable e) {
      e.printStackTrace();
      System.exit(1);
    }
    System.exit(0);
  }

  private static void run(String[] args) throws Exception {
    boolean pedidos = args[0].equals("pedidos");
    Path dir = Path.of(args[1]);
    int vendedores = Integer.parseInt(args[3]);
    Vertx loader = Vertx.vertx();
    Settings conf;
    try {
      conf = ConfigLoader.load(loader, args[2]).await(30, TimeUnit.SECONDS)
        .with(Map.of("data.dir", dir.toString(), "kafka.bootstrap", "", "pg.host", ""));
    } finally {
      loader.close();
    }
    try (Infrastructure infra = Infrastructure.start(conf, EMBEDDED, KafkaAccess.grants())) {
      Settings settings = infra.settings();
      Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(settings.flag("vertx.native-transport")));
      int port = FreePorts.pick();
      (pedidos ? pedidos(vertx, settings, port) : sesiones(vertx, settings, port, vendedores)).await(60, TimeUnit.SECONDS);
      long warm = CalentamientoSuelo.run(vertx, port, pedidos ? "/v1/pedidos" : "/v1/sesiones", pedidos ? PEDIDO : SESION,
        settings.integer("gestor.warm-up-ms")).await(60, TimeUnit.SECONDS);
      String last = pedidos ? EtapaSuelo.Paso.DESPACHO.entrada() : Topics.SESION_ABIERTA;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      // The warm-up's last records pass through before the load, so that it finds the floor idle, as the system.
      while (vertx.eventBus().<Long>request(ConsumidorSuelo.hechos(last), null).await(10, TimeUnit.SECONDS).body() < warm
             && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      System.out.println(LISTO + port);
      System.out.flush();
      while (System.in.read() >= 0) {
        // until the driver closes the pipe (or is gone)
      }
      vertx.close().await(30, TimeUnit.SECONDS);
    }
  }

  /** The super user's clients: the floor writes and reads its own topics' records with the roles' settings. */
  static KafkaConfig kafka(Settings settings) throws Exception {
    KafkaConfig role = KafkaConfig.of(settings, "gestor");
    return new KafkaConfig(role.bootstrap(), EmbeddedKafka.ADMIN, KafkaCredentials.read(settings.dataDir()).admin(),
      role.sessionTimeoutMs(), role.commitIntervalMs(), role.maxInFlight(), role.fetchMinBytes(), role.fetchMaxWaitMs(),
      role.retryMs(), role.yieldDelayMs(), role.yieldInFlight());
  }

  private static Future<?> sesiones(Vertx vertx, Settings settings, int port, int vendedores) throws Exception {
    KafkaConfig kafka = kafka(settings);
    SqlClient gestor = PgClients.pipelined(vertx, PgConfig.of(settings, "gestor"));
    SqlClient seguridad = PgClients.pipelined(vertx, PgConfig.of(settings, "seguridad"));
    return otraVez(() -> SueloSesiones.tablas(gestor, seguridad, vendedores), TRIES)
      .compose(x -> vertx.deployVerticle(() -> new VerificadorSuelo(kafka, seguridad), new DeploymentOptions()))
      .compose(x -> vertx.deployVerticle(() -> new SueloSesiones(kafka, gestor, port), instances()));
  }

  private static Future<?> pedidos(Vertx vertx, Settings settings, int port) throws Exception {
    KafkaConfig kafka = kafka(settings);
    SqlClient pedidos = PgClients.pipelined(vertx, PgConfig.of(settings, "pedidos"));
    Future<?> etapas = Future.succeededFuture();
    for (EtapaSuelo.Paso paso : EtapaSuelo.Paso.values()) {
      SqlClient sql = PgClients.pipelined(vertx, PgConfig.of(settings, paso.rol()));
      etapas = etapas.compose(x -> otraVez(() -> EtapaSuelo.tabla(sql, paso), TRIES))
        .compose(x -> vertx.deployVerticle(() -> new EtapaSuelo(kafka, sql, paso), new DeploymentOptions()));
    }
    return etapas.compose(x -> otraVez(() -> SueloPedidos.tablas(pedidos), TRIES))
      .compose(x -> vertx.deployVerticle(() -> new RelevoSuelo(kafka, pedidos), new DeploymentOptions()))
      .compose(x -> vertx.deployVerticle(() -> new SueloPedidos(pedidos, port), instances()));
  }

  /** Set-up statements are tried this many times: a busy machine may not connect within {@code pg.connect-timeout-ms}. */
  private static final int TRIES = 5;

  /** {@code step} (idempotent), tried up to {@code left} times. */
  private static Future<Object> otraVez(Supplier<Future<?>> step, int left) {
    return step.get().<Object>map(done -> done).recover(err -> left <= 1 ? Future.failedFuture(err) : otraVez(step, left - 1));
  }

  /** As many HTTP verticles as the system deploys by default ({@code http.instances} 0). */
  private static DeploymentOptions instances() {
    return new DeploymentOptions().setInstances(2 * Runtime.getRuntime().availableProcessors());
  }
}
