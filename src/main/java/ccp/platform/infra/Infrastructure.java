package ccp.platform.infra;

import ccp.platform.config.ConfigException;
import ccp.platform.config.Settings;
import ccp.platform.http.Jwks;
import ccp.platform.kafka.BrokerSetup;
import ccp.platform.kafka.KafkaConfig;
import ccp.platform.kafka.KafkaCredentials;
import ccp.platform.kafka.KafkaGrant;
import ccp.platform.kafka.TopicsConfig;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * The broker and database a process uses: the configured ones, or — where the configuration leaves them unset —
 * servers started in this JVM by {@link LocalServers}. The production artifact has none ({@link LocalServers#NONE}):
 * it refuses to start without {@code kafka.bootstrap} and {@code pg.host}. The laptop jar and the tests plug in the
 * embedded Kafka and PostgreSQL; the embedded PostgreSQL's role passwords ({@link PgCredentials}) replace the
 * configured {@code pg.password.*}. Beside the embedded PostgreSQL (a laptop, never production) the keys left unset get
 * development ones from the data directory: an empty {@code jwt.jwks-url} the {@link DevIssuer}'s JWK Set, served on
 * loopback by a {@link JwksEndpoint}; an empty {@code peer.jwks} and {@code peer.private-key} the {@link DevPeerKeys};
 * an empty {@code ssf.private-key} the key in {@code <data.dir>/ssf-transmitter.jwk}, made once.
 * The embedded broker gets the {@link KafkaCredentials} of the data directory, and once it has started, its users,
 * topics and ACLs ({@link BrokerSetup}); the settings then carry every role's Kafka password.
 */
public final class Infrastructure implements AutoCloseable {

  /** The development key of the Shared Signals transmitter, in the data directory. */
  public static final String SSF_KEY = "ssf-transmitter.jwk";

  private final List<AutoCloseable> started;
  private final Settings settings;

  private Infrastructure(List<AutoCloseable> started, Settings settings) {
    this.started = started;
    this.settings = settings;
  }

  /**
   * Blocks while local servers start (seconds) on free ports; call it before any event loop needs them. {@code grants}:
   * what each role's principal may do on an embedded broker.
   */
  public static Infrastructure start(Settings settings, LocalServers local, Collection<KafkaGrant> grants) throws Exception {
    return start(settings, local, grants, 0, 0, 0);
  }

  /**
   * As {@link #start(Settings, LocalServers, Collection)}, with the broker's, the database's and the development
   * issuer's ports fixed (0: a free one).
   */
  public static Infrastructure start(Settings settings, LocalServers local, Collection<KafkaGrant> grants, int kafkaPort,
                                     int pgPort, int issuerPort) throws Exception {
    List<AutoCloseable> started = new ArrayList<>();
    Map<String, Object> resolved = new HashMap<>();
    FutureTask<Broker> broker = null;
    try {
      if (settings.embeddedPostgres() && !local.startsPostgres()) throw missing("PostgreSQL", "pg.host");
      if (settings.embeddedKafka()) {
        if (!local.startsKafka()) throw missing("Kafka broker", "kafka.bootstrap");
        // The broker and the database start side by side: on a first start each spends seconds formatting its data
        // (the start-to-ready budget of a cold start); neither needs the other.
        broker = new FutureTask<>(() -> startBroker(settings, local, grants, kafkaPort));
        Thread starter = new Thread(broker, "embedded-kafka-start");
        starter.setDaemon(true);
        starter.start();
      }
      if (settings.embeddedPostgres()) {
        LocalServers.Running pg = local.postgres().start(settings.dataDir().resolve("postgres"), settings.text("pg.database"),
          () -> PgCredentials.inDataDir(settings.dataDir()).access(), pgPort, settings.flag("infra.pg-durable"));
        started.add(pg.server());
        resolved.put("pg.host", pg.host());
        resolved.put("pg.port", pg.port());
        resolved.putAll(PgCredentials.inDataDir(settings.dataDir()).settings());
      }
      // After the database: an artifact that starts none has failed above without writing a key.
      if (settings.embeddedPostgres()) developmentKeys(settings, issuerPort, started, resolved);
      if (broker != null) {
        // Taken first: a broker that failed is this start's failure, not one to await again below (its exception
        // would then be added to itself as suppressed, and the IllegalArgumentException of that hide it).
        FutureTask<Broker> starting = broker;
        broker = null;
        Broker running = outcome(starting);
        started.add(running.server());
        resolved.putAll(running.settings());
      }
      return new Infrastructure(started, settings.with(resolved));
    } catch (Exception e) {
      if (broker != null) {
        try {
          started.add(outcome(broker).server());
        } catch (Exception alsoFailed) {
          e.addSuppressed(alsoFailed);
        }
      }
      closeAll(started);
      throw e;
    }
  }

  private record Broker(AutoCloseable server, Map<String, Object> settings) {}

  private static Broker startBroker(Settings settings, LocalServers local, Collection<KafkaGrant> grants, int kafkaPort)
    throws Exception {
    Path log = settings.dataDir().resolve("kafka");
    if (!KafkaCredentials.exist(settings.dataDir())) setAsideUnknownLog(log);
    KafkaCredentials credentials = KafkaCredentials.resolve(settings.dataDir(), grants.stream().map(KafkaGrant::role).toList());
    LocalServers.Running kafka = local.kafka().start(log, kafkaPort, credentials.admin(), credentials.users());
    try {
      BrokerSetup.run(kafka.address(), credentials, TopicsConfig.from(settings), grants);
    } catch (Exception e) {
      kafka.server().close();
      throw e;
    }
    Map<String, Object> resolved = new HashMap<>();
    resolved.put("kafka.bootstrap", kafka.address());
    grants.forEach(g -> resolved.put(KafkaConfig.passwordKey(g.role()), credentials.roles().get(g.role())));
    return new Broker(kafka.server(), resolved);
  }

  private static Broker outcome(FutureTask<Broker> broker) throws Exception {
    try {
      return broker.get();
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }

  /**
   * A broker log without its credentials file was formatted before the broker authenticated anyone (or the file was
   * deleted): no one can log in as its super user. A laptop user expects the jar to start as it did before, so the log
   * is moved aside, not deleted, and a new one is formatted. The state of record is in PostgreSQL; events of the old
   * log that no consumer had read yet are not replayed (stalled stages are signalled again by the Monitor's sweep).
   */
  private static void setAsideUnknownLog(Path log) throws IOException {
    if (!Files.exists(log.resolve("meta.properties"))) return;
    Path aside = log.resolveSibling("kafka-without-credentials-" + System.currentTimeMillis());
    Files.move(log, aside);
    LoggerFactory.getLogger(Infrastructure.class).warn("The Kafka log in {} has no credentials in {} (it predates SASL/ACLs):"
      + " moved to {}; a new one is formatted. Delete that directory once you no longer need it.", log, KafkaCredentials.FILE, aside);
  }

  private static void developmentKeys(Settings settings, int issuerPort, List<AutoCloseable> started,
                                      Map<String, Object> resolved) throws Exception {
    if (settings.text("jwt.jwks-url").isBlank()) {
      JwksEndpoint issuer = JwksEndpoint.start(DevIssuer.jwks(DevIssuer.key(settings.dataDir())), issuerPort);
      started.add(issuer);
      resolved.put("jwt.jwks-url", issuer.url());
    }
    if (settings.text("peer.jwks").isBlank() || settings.text("peer.private-key").isBlank()) {
      DevPeerKeys peers = DevPeerKeys.ensure(settings.dataDir());
      if (settings.text("peer.jwks").isBlank()) resolved.put("peer.jwks", peers.jwks().encode());
      if (settings.text("peer.private-key").isBlank()) resolved.put("peer.private-key", peers.privateKey(DevPeerKeys.CALLER).encode());
    }
    if (settings.text("ssf.private-key").isBlank()) {
      resolved.put("ssf.private-key", Jwks.createOnce(settings.dataDir().resolve(SSF_KEY), Jwks.generateRs256("ccp-ssf-1")).encode());
    }
  }

  /** The settings with the local servers' addresses, the Kafka passwords and the development keys, or the given ones unchanged. */
  public Settings settings() {
    return settings;
  }

  @Override
  public void close() {
    closeAll(started);
  }

  private static void closeAll(List<AutoCloseable> started) {
    for (int i = started.size() - 1; i >= 0; i--) {
      try {
        started.get(i).close();
      } catch (Exception e) {
        LoggerFactory.getLogger(Infrastructure.class).warn("Stopping {} failed", started.get(i), e);
      }
    }
  }

  static ConfigException missing(String what, String key) {
    return new ConfigException(Settings.envName(key) + " is not set and this artifact starts no " + what
      + " of its own: set it, or run the laptop jar (target/reto2-ccp.jar), which embeds one");
  }
}
