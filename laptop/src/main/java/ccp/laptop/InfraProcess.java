package ccp.laptop;

import ccp.app.KafkaAccess;
import ccp.platform.config.ConfigException;
import ccp.platform.config.PgRoles;
import ccp.platform.config.Settings;
import ccp.platform.db.PgClients;
import ccp.platform.db.PgConfig;
import ccp.platform.http.Health;
import ccp.platform.http.ManagementServer;
import ccp.platform.infra.Infrastructure;
import ccp.platform.infra.PgCredentials;
import ccp.platform.kafka.KafkaConfig;
import ccp.platform.kafka.KafkaCredentials;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.healthchecks.Status;
import io.vertx.kafka.admin.KafkaAdminClient;
import io.vertx.sqlclient.SqlClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code infra}: only the embedded Kafka broker and PostgreSQL, on the fixed ports {@code infra.kafka-port} and
 * {@code infra.pg-port}, so that several role processes on one machine can share them. It migrates nothing and
 * deploys no role: each role process migrates its own schemas. Its management port answers health (ready while both
 * servers answer) like every other process.
 */
public final class InfraProcess implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(InfraProcess.class);

  private final Infrastructure infrastructure;
  private final Vertx vertx;
  private final int managementPort;

  private InfraProcess(Infrastructure infrastructure, Vertx vertx, int managementPort) {
    this.infrastructure = infrastructure;
    this.vertx = vertx;
    this.managementPort = managementPort;
  }

  /**
   * Blocks while both servers start. It also makes sure the development keys exist in the data directory (the dev
   * issuer's and the roles' peer keys), so that the role processes and the {@code token} command started from the same
   * directory can use them, and serves the dev issuer's JWK Set on {@code infra.issuer-port}.
   */
  public static InfraProcess start(Settings settings) throws Exception {
    if (!settings.embeddedKafka() || !settings.embeddedPostgres()) {
      throw new ConfigException("infra starts the embedded Kafka and PostgreSQL: unset "
        + Settings.envName("kafka.bootstrap") + " and " + Settings.envName("pg.host"));
    }
    long began = System.nanoTime();
    Infrastructure infrastructure = Infrastructure.start(settings, Embedded.SERVERS, KafkaAccess.grants(),
      settings.integer("infra.kafka-port"), settings.integer("infra.pg-port"), settings.integer("infra.issuer-port"));
    Vertx vertx = Vertx.vertx();
    try {
      Settings resolved = infrastructure.settings();
      int port = serveHealth(vertx, resolved).await(30, TimeUnit.SECONDS);
      LOG.info("Infrastructure ready in {} ms: Kafka on {}, PostgreSQL on {}:{} (database {}), data in {}, management on port {}."
          + " Point role processes at it with {}={} {}={} {}={} {}={}, each role's Kafka password from {}, and its"
          + " PostgreSQL password from {} as {}",
        (System.nanoTime() - began) / 1_000_000, resolved.text("kafka.bootstrap"), resolved.text("pg.host"),
        resolved.integer("pg.port"), resolved.text("pg.database"), resolved.dataDir().toAbsolutePath(), port,
        Settings.envName("kafka.bootstrap"), resolved.text("kafka.bootstrap"), Settings.envName("pg.host"),
        resolved.text("pg.host"), Settings.envName("pg.port"), resolved.integer("pg.port"),
        Settings.envName("jwt.jwks-url"), resolved.text("jwt.jwks-url"),
        resolved.dataDir().resolve(KafkaCredentials.FILE).toAbsolutePath(),
        resolved.dataDir().resolve(PgCredentials.FILE), Settings.envName(PgRoles.passwordKey("<role>")));
      return new InfraProcess(infrastructure, vertx, port);
    } catch (Exception e) {
      vertx.close().await(10, TimeUnit.SECONDS);
      infrastructure.close();
      throw e;
    }
  }

  private static Future<Integer> serveHealth(Vertx vertx, Settings settings) throws IOException {
    Health health = new Health(vertx, settings.integer("health.event-loop-deadline-ms"));
    // The infra holds the servers: it probes the database as its superuser and the broker as its super user, whose
    // passwords it keeps in the data directory; no role's login.
    SqlClient sql = PgClients.pipelined(vertx, new PgConfig(settings.text("pg.host"), settings.integer("pg.port"),
      settings.text("pg.database"), PgCredentials.SUPERUSER, PgCredentials.inDataDir(settings.dataDir()).superuserPassword(), 1,
      settings.integer("pg.statement-timeout-ms"), settings.integer("pg.connect-timeout-ms")));
    KafkaAdminClient admin = KafkaAdminClient.create(vertx, KafkaConfig.client(settings.text("kafka.bootstrap"), "admin",
      KafkaCredentials.read(settings.dataDir()).admin()));
    health.readyWhenPostgresAnswers(Map.of(PgCredentials.SUPERUSER, sql));
    health.readiness().register("kafka", 2_000, promise -> admin.describeCluster()
      .onSuccess(cluster -> promise.complete(Status.OK(new JsonObject().put("brokers", cluster.getNodes().size()))))
      .onFailure(err -> promise.complete(Status.KO(new JsonObject().put("error", err.getMessage())))));
    ManagementServer management = new ManagementServer(health, new PrometheusMeterRegistry(PrometheusConfig.DEFAULT),
      settings.text("http.host"), settings.integer("management.port"));
    return vertx.deployVerticle(management).map(id -> management.actualPort());
  }

  /** The settings a role process needs to use this broker and database: their real addresses and the development keys. */
  public Settings settings() {
    return infrastructure.settings();
  }

  public int managementPort() {
    return managementPort;
  }

  @Override
  public void close() throws Exception {
    vertx.close().await(30, TimeUnit.SECONDS);
    infrastructure.close();
  }
}
