package ccp.embedded;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Exit;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * A real single-node Kafka broker (KRaft, broker + controller in one) running in this JVM, for a laptop and the
 * tests. Its log directory survives restarts, so committed events and consumer offsets do too.
 * <p>
 * Clients authenticate with SCRAM-SHA-512 on a SASL_PLAINTEXT listener and are authorized by KRaft's
 * {@code StandardAuthorizer}, deny by default: only the super user {@value #ADMIN} may do what no ACL allows. The SCRAM
 * users are written into the cluster metadata when the directory is formatted. The controller listener uses SASL PLAIN
 * with the admin's password: SCRAM cannot authenticate there, because its credentials live in the very metadata the
 * controller has not loaded yet when the broker first connects to it.
 */
public final class EmbeddedKafka implements AutoCloseable {

  /** The super user, whose password the caller chooses. */
  public static final String ADMIN = "admin";

  /** The metadata version a new directory is formatted with: the newest this Kafka runs in production. */
  public static final MetadataVersion METADATA_VERSION = MetadataVersion.latestProduction();

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafka.class);
  private static final String SCRAM = "SCRAM-SHA-512";
  private static final int SCRAM_ITERATIONS = 4096;
  private static final String CONTROLLER = "CONTROLLER";

  private final KafkaRaftServer server;
  private final int port;

  private EmbeddedKafka(KafkaRaftServer server, int port) {
    this.server = server;
    this.port = port;
  }

  /**
   * Formats {@code dir} on first use, with {@value #ADMIN} and {@code users} (name → password) as its SCRAM users, and
   * starts the broker on loopback, its clients' listener on {@code port} (0: a free one). Blocks until started. A
   * directory formatted earlier keeps the users it was formatted with.
   */
  public static EmbeddedKafka start(Path dir, int port, String adminPassword, Map<String, String> users) throws IOException {
    guardJvmAgainstBrokerExit();
    requireQuotable(ADMIN, adminPassword);
    users.forEach(EmbeddedKafka::requireQuotable);
    Files.createDirectories(dir);
    int brokerPort = port == 0 ? FreePorts.pick() : port;
    int controllerPort = FreePorts.pick();
    Properties p = new Properties();
    p.put("process.roles", "broker,controller");
    p.put("node.id", "1");
    p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    p.put("listeners", "CLIENT://127.0.0.1:" + brokerPort + "," + CONTROLLER + "://127.0.0.1:" + controllerPort);
    p.put("advertised.listeners", "CLIENT://127.0.0.1:" + brokerPort);
    p.put("controller.listener.names", CONTROLLER);
    p.put("listener.security.protocol.map", "CLIENT:SASL_PLAINTEXT," + CONTROLLER + ":SASL_PLAINTEXT");
    p.put("inter.broker.listener.name", "CLIENT");
    p.put("sasl.enabled.mechanisms", SCRAM);
    p.put("sasl.mechanism.inter.broker.protocol", SCRAM);
    p.put("listener.name.client.scram-sha-512.sasl.jaas.config",
      "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + ADMIN + "\" password=\"" + adminPassword + "\";");
    p.put("listener.name.controller.sasl.enabled.mechanisms", "PLAIN");
    p.put("sasl.mechanism.controller.protocol", "PLAIN");
    p.put("listener.name.controller.plain.sasl.jaas.config",
      "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + ADMIN + "\" password=\"" + adminPassword
        + "\" user_" + ADMIN + "=\"" + adminPassword + "\";");
    p.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
    p.put("super.users", "User:" + ADMIN);
    p.put("allow.everyone.if.no.acl.found", "false");
    p.put("log.dirs", dir.toAbsolutePath().toString());
    p.put("offsets.topic.replication.factor", "1");
    p.put("offsets.topic.num.partitions", "4");
    p.put("transaction.state.log.replication.factor", "1");
    p.put("transaction.state.log.min.isr", "1");
    p.put("group.initial.rebalance.delay.ms", "0");
    p.put("auto.create.topics.enable", "false");
    p.put("num.partitions", "1");
    // A restarted broker waits for its previous incarnation's session to expire before it is unfenced.
    p.put("broker.heartbeat.interval.ms", "500");
    p.put("broker.session.timeout.ms", "2000");
    // Lets tests shorten consumer failover below the broker default minimum of 6 s.
    p.put("group.min.session.timeout.ms", "1000");
    KafkaConfig config = KafkaConfig.fromProps(p);
    if (!Files.exists(dir.resolve("meta.properties"))) {
      Map<String, String> all = new LinkedHashMap<>(users);
      all.put(ADMIN, adminPassword);
      format(dir, config, all);
    }
    KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
    server.startup();
    LOG.info("Embedded Kafka broker (KRaft) listening on 127.0.0.1:{}, data in {}", brokerPort, dir.toAbsolutePath());
    return new EmbeddedKafka(server, brokerPort);
  }

  /** Writes the cluster's metadata at this Kafka's newest production metadata version, with the SCRAM users in it. */
  private static void format(Path dir, KafkaConfig config, Map<String, String> users) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<String> scram = users.entrySet().stream()
      .map(user -> SCRAM + "=[name=" + user.getKey() + ",password=" + user.getValue() + ",iterations=" + SCRAM_ITERATIONS + "]")
      .toList();
    try {
      new Formatter()
        .setPrintStream(new PrintStream(out, true, StandardCharsets.UTF_8))
        .setNodeId(config.nodeId())
        .setClusterId(Uuid.randomUuid().toString())
        .setControllerListenerName(CONTROLLER)
        .setMetadataLogDirectory(config.metadataLogDir())
        .addDirectory(dir.toAbsolutePath().toString())
        .setReleaseVersion(METADATA_VERSION)
        .setScramArguments(scram)
        .run();
    } catch (Exception e) {
      throw new IllegalStateException("cannot format Kafka storage in " + dir + ": " + e.getMessage() + " "
        + out.toString(StandardCharsets.UTF_8), e);
    }
  }

  /** A name or password goes between double quotes in a JAAS configuration: letters, digits, '-', '_' and '.' only. */
  private static void requireQuotable(String name, String password) {
    if (!name.matches("[A-Za-z0-9._-]+") || !password.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException("Kafka user '" + name + "': names and passwords may hold only letters, digits, '.', '_' and '-'");
    }
  }

  /** Kafka calls {@code Exit.exit/halt} on fatal errors; in our JVM that must fail loudly, not kill the process. */
  private static void guardJvmAgainstBrokerExit() {
    Exit.setExitProcedure((status, message) -> LOG.error("Embedded Kafka asked to exit ({}): {}", status, message));
    Exit.setHaltProcedure((status, message) -> LOG.error("Embedded Kafka asked to halt ({}): {}", status, message));
  }

  /** The clients' listener, on 127.0.0.1. */
  public int port() {
    return port;
  }

  public String bootstrap() {
    return "127.0.0.1:" + port;
  }

  @Override
  public void close() {
    server.shutdown();
    server.awaitShutdown();
  }
}
