package ccp.embedded;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Exit;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.bootstrap.BootstrapMetadata;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.jdk.javaapi.CollectionConverters;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * A real single-node Kafka broker (KRaft, broker + controller in one) running in this JVM, for a laptop and the
 * tests. Its log directory survives restarts, so committed events and consumer offsets do too.
 */
public final class EmbeddedKafka implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafka.class);

  private final KafkaRaftServer server;
  private final int port;

  private EmbeddedKafka(KafkaRaftServer server, int port) {
    this.server = server;
    this.port = port;
  }

  /**
   * Formats {@code dir} on first use and starts the broker on loopback, its clients' listener on {@code port} (0: a
   * free one). Blocks until started.
   */
  public static EmbeddedKafka start(Path dir, int port) throws IOException {
    guardJvmAgainstBrokerExit();
    Files.createDirectories(dir);
    int brokerPort = port == 0 ? FreePorts.pick() : port;
    int controllerPort = FreePorts.pick();
    Properties p = new Properties();
    p.put("process.roles", "broker,controller");
    p.put("node.id", "1");
    p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    p.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
    p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
    p.put("controller.listener.names", "CONTROLLER");
    p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    p.put("inter.broker.listener.name", "PLAINTEXT");
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
      format(dir, config);
    }
    KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
    server.startup();
    LOG.info("Embedded Kafka broker (KRaft) listening on 127.0.0.1:{}, data in {}", brokerPort, dir.toAbsolutePath());
    return new EmbeddedKafka(server, brokerPort);
  }

  private static void format(Path dir, KafkaConfig config) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    MetadataVersion version = MetadataVersion.latestProduction();
    int rc = StorageTool.formatCommand(
      new PrintStream(out, true, StandardCharsets.UTF_8),
      CollectionConverters.asScala(List.of(dir.toAbsolutePath().toString())).toSeq(),
      StorageTool.buildMetadataProperties(Uuid.randomUuid().toString(), config),
      BootstrapMetadata.fromVersion(version, "embedded"),
      version,
      true);
    if (rc != 0) {
      throw new IllegalStateException("cannot format Kafka storage in " + dir + ": " + out.toString(StandardCharsets.UTF_8));
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
