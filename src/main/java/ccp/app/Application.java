package ccp.app;

import ccp.platform.config.ConfigException;
import ccp.platform.config.Settings;
import ccp.platform.db.Migrations;
import ccp.platform.db.PgConfig;
import ccp.platform.db.PgClients;
import ccp.platform.http.Health;
import ccp.platform.http.Contrato;
import ccp.platform.http.HttpConfig;
import ccp.platform.http.JwtConfig;
import ccp.platform.http.ManagementServer;
import ccp.platform.http.PeerConfig;
import ccp.platform.http.PeerSigner;
import ccp.platform.http.PeerVerifier;
import ccp.platform.http.Tokens;
import ccp.platform.kafka.BrokerHealth;
import ccp.platform.kafka.KafkaConfig;
import ccp.platform.role.RoleContext;
import ccp.seguridad.ListaRevocacion;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.micrometer.Label;
import io.vertx.micrometer.MetricsDomain;
import io.vertx.micrometer.MicrometerMetricsFactory;
import io.vertx.micrometer.MicrometerMetricsOptions;
import io.vertx.sqlclient.SqlClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
/**
 * One process of the system: its own Vert.x with Micrometer metrics, the schemas of its roles migrated, one PostgreSQL
 * client per role (each as the role's own login role), the roles' verticles and the management server. Each role talks
 * to the broker as its own principal, also when several share the process; none creates topics (the broker's operator
 * does: {@code BrokerSetup} beside the embedded broker, Strimzi in Kubernetes). Tests start several in one JVM to play
 * several processes.
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
   * password, the Kafka password of every role in {@code roles} that has a principal ({@link KafkaAccess}) and, for the
   * roles that need them, the App issuer's JWK Set URL and the peer keys. A missing password fails the start before
   * anything is built.
   */
  public static Future<Application> start(Settings settings, Set<Role> roles) {
    Map<Role, PgConfig> logins = new EnumMap<>(Role.class);
    Map<Role, KafkaConfig> kafka;
    try {
      for (Role role : roles) logins.put(role, PgConfig.of(settings, role.id()));
      kafka = kafkaConfigs(settings, roles);
    } catch (RuntimeException missingPassword) {
      return Future.failedFuture(missingPassword);
    }
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    Vertx vertx = Vertx.builder()
      .with(new VertxOptions().setPreferNativeTransport(settings.flag("vertx.native-transport"))
        .setMetricsOptions(new MicrometerMetricsOptions()
        .setEnabled(true)
        .setJvmMetricsEnabled(true)
        // One process serves several roles' ports: LOCAL keeps their series apart, HTTP_ROUTE gives per-endpoint rates,
        // NAMESPACE the SQL statements of each role's client (PgConfig names it after the role's login).
        .addLabels(Label.LOCAL, Label.HTTP_ROUTE, Label.NAMESPACE)
        // The HTTP server series say what the App sees; client and socket series would count each hop again.
        .addDisabledMetricsCategory(MetricsDomain.HTTP_CLIENT)
        .addDisabledMetricsCategory(MetricsDomain.NET_CLIENT)
        .addDisabledMetricsCategory(MetricsDomain.NET_SERVER)
        .addDisabledMetricsCategory(MetricsDomain.EVENT_BUS)))
      .withMetrics(new MicrometerMetricsFactory(registry))
      .build();
    Application app = new Application(vertx, settings, registry);
    // A start that fails closes this Vert.x. The outcome goes through a promise of no context: a listener chained on
    // the close from one of its own event loops (recover/transform) would never run, and the caller would wait forever.
    Promise<Application> started = Promise.promise();
    app.boot(logins, kafka).onComplete(ar -> {
      if (ar.succeeded()) {
        started.complete(ar.result());
      } else {
        app.stop().onComplete(closed -> started.fail(ar.cause()));
      }
    });
    return started.future();
  }

  /** Each role's own Kafka identity, before anything starts: a role without its password stops the process at once. */
  private static Map<Role, KafkaConfig> kafkaConfigs(Settings settings, Set<Role> roles) {
    Map<Role, KafkaConfig> kafka = new EnumMap<>(Role.class);
    for (Role role : roles) {
      KafkaConfig own = KafkaAccess.config(settings, role);
      if (own != null) kafka.put(role, own);
    }
    return kafka;
  }

  private Future<Application> boot(Map<Role, PgConfig> logins, Map<Role, KafkaConfig> kafka) {
    Set<Role> roles = logins.keySet();
    long began = System.nanoTime();
    HttpConfig http = HttpConfig.from(settings);
    RoleConfigs configs = RoleConfigs.from(settings);
    Health health = new Health(vertx, settings.integer("health.event-loop-deadline-ms"));
    var revision = ListaRevocacion.timer(registry);
    PeerConfig peer = PeerConfig.from(settings);
    PeerVerifier peers;
    PeerSigner signer;
    try {
      peers = roles.stream().anyMatch(Role::receivesCalls) ? PeerVerifier.create(vertx, peer) : null;
      signer = roles.stream().filter(Role::callsRoles).findFirst().map(r -> PeerSigner.create(vertx, peer, r.id())).orElse(null);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    // A role that cannot serve without the broker makes the process's readiness follow it, through its own principal.
    Map<KafkaConfig, Set<String>> probes = new LinkedHashMap<>();
    roles.stream().filter(r -> !r.servesWithoutBroker() && kafka.containsKey(r))
      .forEach(r -> probes.put(kafka.get(r), KafkaAccess.TABLE.get(r).topics()));
    return Future.all(appTokens(roles, http), contract(roles))
      .map(loaded -> {
        Tokens tokens = loaded.resultAt(0);
        Contrato contrato = loaded.resultAt(1);
        Map<Role, RoleContext> contexts = new EnumMap<>(Role.class);
        for (Role role : roles) {
          PgConfig pg = logins.get(role);
          SqlClient sql = PgClients.pipelined(vertx, pg);
          contexts.put(role, new RoleContext(vertx, pg, sql, registry, health, tokens, peers, signer, http, kafka.get(role),
            () -> new ListaRevocacion(sql, configs.revocacionLoteMax()).requerirVigente(revision), contrato));
        }
        health.readyWhenPostgresAnswers(contexts.entrySet().stream()
          .collect(Collectors.toMap(e -> e.getKey().id(), e -> e.getValue().sql())));
        return contexts;
      })
      .compose(contexts -> migrate(contexts)
        .compose(ignored -> probes.isEmpty() ? Future.<Void>succeededFuture() : brokerHealth(probes, health))
        .compose(ignored -> Future.all(roles.stream().map(r -> r.deploy(configs, contexts)).toList()))
        .compose(ignored -> Future.all(roles.stream().map(r -> r.warmUp(configs, contexts)).toList())))
      .compose(ignored -> {
        ManagementServer management = new ManagementServer(health, registry, http.host(), settings.integer("management.port"));
        return vertx.deployVerticle(management).map(id -> management.actualPort());
      })
      .map(port -> {
        managementPort = port;
        LOG.info("Roles {} started in {} ms, on the {} transport", roles.stream().map(Role::id).collect(Collectors.joining(",")),
          (System.nanoTime() - began) / 1_000_000, vertx.isNativeTransportEnabled() ? "native" : "NIO");
        return this;
      });
  }

  /** The App token verifier, when a role of this process serves HTTP; a process that serves none holds no key. */
  private Future<Tokens> appTokens(Set<Role> roles, HttpConfig http) {
    return roles.stream().anyMatch(Role::servesHttp)
      ? Tokens.fetch(vertx, JwtConfig.from(settings), http.clientTimeoutMs())
      : Future.succeededFuture(null);
  }

  /** The App's contract, which every router serving HTTP is checked against; none when no role serves HTTP. */
  private Future<Contrato> contract(Set<Role> roles) {
    return roles.stream().anyMatch(Role::servesHttp) ? Contrato.cargar(vertx) : Future.succeededFuture(null);
  }

  /** Each role's schemas, as their owner: that role's login. */
  private Future<Void> migrate(Map<Role, RoleContext> contexts) {
    boolean demoSeed = settings.flag("demo.seed");
    return vertx.executeBlocking(() -> {
      contexts.forEach((role, context) -> Migrations.migrate(context.db(), demoSeed, role.schemas()));
      return null;
    });
  }

  private Future<Void> brokerHealth(Map<KafkaConfig, Set<String>> probes, Health health) {
    return vertx.deployVerticle(new BrokerHealth(probes, health)).mapEmpty();
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
