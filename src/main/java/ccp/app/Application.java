package ccp.app;

import ccp.platform.config.ConfigException;
import ccp.platform.config.Settings;
import ccp.platform.db.Migrations;
import ccp.platform.db.PgConfig;
import ccp.platform.db.PgClients;
import ccp.platform.http.Health;
import ccp.platform.http.HttpConfig;
import ccp.platform.http.JwtConfig;
import ccp.platform.http.ManagementServer;
import ccp.platform.http.Tokens;
import ccp.platform.kafka.BrokerHealth;
import ccp.platform.kafka.KafkaConfig;
import ccp.platform.kafka.Topics;
import ccp.platform.kafka.TopicsConfig;
import ccp.platform.role.RoleContext;
import ccp.seguridad.ListaRevocacion;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.kafka.admin.KafkaAdminClient;
import io.vertx.micrometer.Label;
import io.vertx.micrometer.MetricsDomain;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.sqlclient.SqlClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One process of the system: its own Vert.x with Micrometer metrics, the schemas of its roles migrated, the topics
 * present, one PostgreSQL client per role (each as the role's own login role), the roles' verticles and the management
 * server. Tests start several in one JVM to play several processes.
 */
public final class Application {

  private static final Logger LOG = LoggerFactory.getLogger(Application.class);

  private final Vertx vertx;
  private final Settings settings;
  private final PrometheusMeterRegistry registry;
  private int managementPort;

  private Application(Vertx vertx, Settings settings, PrometheusMeterRegistry registry) {
    this.vertx = vertx;
    this.settings = settings;
    this.registry = registry;
  }

  /**
   * {@code settings} must name a reachable Kafka and PostgreSQL (see {@code Infrastructure}), each role's PostgreSQL
   * password and a JWT secret.
   *
   * @throws ConfigException when a role's PostgreSQL password is not set
   */
  public static Future<Application> start(Settings settings, Set<Role> roles) {
    // A role without its password stops the start here, before anything is built.
    Map<Role, PgConfig> logins = new EnumMap<>(Role.class);
    for (Role role : roles) logins.put(role, PgConfig.of(settings, role.id()));
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Vertx vertx = Vertx.builder()
      .with(new VertxOptions().setMetricsOptions(new MicrometerMetricsOptions()
        .setEnabled(true)
        .setJvmMetricsEnabled(true)
        // One process serves several roles' ports: LOCAL keeps their series apart, HTTP_ROUTE gives per-endpoint rates.
        .addLabels(Label.LOCAL, Label.HTTP_ROUTE)
        // The HTTP server series say what the App sees; client and socket series would count each hop again.
        .addDisabledMetricsCategory(MetricsDomain.HTTP_CLIENT)
        .addDisabledMetricsCategory(MetricsDomain.NET_CLIENT)
        .addDisabledMetricsCategory(MetricsDomain.NET_SERVER)
        .addDisabledMetricsCategory(MetricsDomain.EVENT_BUS)))
      .withMetrics(new MicrometerMetricsFactory(registry))
      .build();
    Application app = new Application(vertx, settings, registry);
    return app.boot(logins).recover(err -> app.stop().transform(ignored -> Future.failedFuture(err)));
  }

  private Future<Application> boot(Map<Role, PgConfig> logins) {
    Set<Role> roles = logins.keySet();
    long began = System.nanoTime();
    HttpConfig http = HttpConfig.from(settings);
    KafkaConfig kafka = KafkaConfig.from(settings);
    TopicsConfig topics = TopicsConfig.from(settings);
    RoleConfigs configs = RoleConfigs.from(settings);
    Health health = new Health(vertx);
    Tokens tokens = Tokens.create(vertx, JwtConfig.from(settings));
    var revision = ListaRevocacion.timer(registry);
    Map<Role, RoleContext> contexts = new EnumMap<>(Role.class);
    for (Role role : roles) {
      PgConfig pg = logins.get(role);
      SqlClient sql = PgClients.pipelined(vertx, pg);
      contexts.put(role, new RoleContext(vertx, pg, sql, registry, health, tokens, http, kafka,
        () -> new ListaRevocacion(sql, configs.revocacionLoteMax()).requerirVigente(revision)));
    }
    health.readyWhenPostgresAnswers(contexts.entrySet().stream()
      .collect(Collectors.toMap(e -> e.getKey().id(), e -> e.getValue().sql())));
    boolean needsBroker = !roles.stream().allMatch(Role::servesWithoutBroker);
    return migrate(contexts)
      .compose(ignored -> ensureTopics(kafka, topics))
      .compose(ignored -> needsBroker ? brokerHealth(kafka, topics, health) : Future.<Void>succeededFuture())
      .compose(ignored -> Future.all(roles.stream().map(r -> r.deploy(configs, contexts)).toList()))
      .compose(ignored -> {
        ManagementServer management = new ManagementServer(health, registry, http.host(), settings.integer("management.port"));
        return vertx.deployVerticle(management).map(id -> management.actualPort());
      })
      .map(port -> {
        managementPort = port;
        LOG.info("Roles {} started in {} ms", roles.stream().map(Role::id).collect(Collectors.joining(",")),
          (System.nanoTime() - began) / 1_000_000);
        return this;
      });
  }

  /** Each role's schemas, as their owner: that role's login. */
  private Future<Void> migrate(Map<Role, RoleContext> contexts) {
    boolean demoSeed = settings.flag("demo.seed");
    return vertx.executeBlocking(() -> {
      contexts.forEach((role, context) -> Migrations.migrate(context.db(), demoSeed, role.schemas()));
      return null;
    });
  }

  private Future<Void> ensureTopics(KafkaConfig kafka, TopicsConfig topics) {
    KafkaAdminClient admin = KafkaAdminClient.create(vertx, Map.of("bootstrap.servers", kafka.bootstrap()));
    return Topics.ensure(admin, topics).eventually(() -> admin.close(5_000));
  }

  private Future<Void> brokerHealth(KafkaConfig kafka, TopicsConfig topics, Health health) {
    return vertx.deployVerticle(new BrokerHealth(kafka, List.copyOf(Topics.partitions(topics).keySet()), health)).mapEmpty();
  }

  /** Undeploys every verticle (consumers commit and leave their groups) and closes the database client. */
  public Future<Void> stop() {
    return vertx.close();
  }

  public Vertx vertx() {
    return vertx;
  }

  public Settings settings() {
    return settings;
  }

  public PrometheusMeterRegistry registry() {
    return registry;
  }

  public int managementPort() {
    return managementPort;
  }
}
