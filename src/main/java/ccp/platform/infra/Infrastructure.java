package ccp.platform.infra;

import ccp.platform.config.ConfigException;
import ccp.platform.config.DevelopmentKey;
import ccp.platform.config.Settings;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The broker and database a process uses: the configured ones, or — where the configuration leaves them unset —
 * servers started in this JVM by {@link LocalServers}. The production artifact has none ({@link LocalServers#NONE}):
 * it refuses to start without {@code kafka.bootstrap} and {@code pg.host}. The laptop jar and the tests plug in the
 * embedded Kafka and PostgreSQL; the embedded PostgreSQL's role passwords ({@link PgCredentials}) replace the
 * configured {@code pg.password.*}. Beside the embedded PostgreSQL an empty {@code jwt.secret} gets the
 * {@link DevelopmentKey}.
 */
public final class Infrastructure implements AutoCloseable {

  private final List<AutoCloseable> started;
  private final Settings settings;

  private Infrastructure(List<AutoCloseable> started, Settings settings) {
    this.started = started;
    this.settings = settings;
  }

  /** Blocks while local servers start (seconds) on free ports; call it before any event loop needs them. */
  public static Infrastructure start(Settings settings, LocalServers local) throws Exception {
    return start(settings, local, 0, 0);
  }

  /** As {@link #start(Settings, LocalServers)}, with the broker's and the database's ports fixed (0: a free one). */
  public static Infrastructure start(Settings settings, LocalServers local, int kafkaPort, int pgPort) throws Exception {
    List<AutoCloseable> started = new ArrayList<>();
    Map<String, Object> resolved = new HashMap<>();
    try {
      if (settings.embeddedPostgres()) {
        LocalServers.Running pg = local.postgres().start(settings.dataDir().resolve("postgres"), settings.text("pg.database"),
          () -> PgCredentials.inDataDir(settings.dataDir()).access(), pgPort, settings.flag("infra.pg-durable"));
        started.add(pg.server());
        resolved.put("pg.host", pg.host());
        resolved.put("pg.port", pg.port());
        resolved.putAll(PgCredentials.inDataDir(settings.dataDir()).settings());
      }
      // After the database: an artifact that starts none has failed above without writing a key; before the broker:
      // a secret that must be configured is missing before anything else starts.
      Settings keyed = DevelopmentKey.resolve(settings);
      if (settings.embeddedKafka()) {
        LocalServers.Running kafka = local.kafka().start(settings.dataDir().resolve("kafka"), kafkaPort);
        started.add(kafka.server());
        resolved.put("kafka.bootstrap", kafka.address());
      }
      return new Infrastructure(started, keyed.with(resolved));
    } catch (Exception e) {
      closeAll(started);
      throw e;
    }
  }

  /** The settings with the local servers' addresses and the JWT key, or the given ones unchanged. */
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
