package ccp.platform.infra;

import ccp.platform.config.Settings;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Starts the embedded broker and database for whatever the configuration leaves unset, and answers the
 * settings with their real addresses filled in. With both configured it starts nothing.
 */
public final class Infrastructure implements AutoCloseable {

  private final List<AutoCloseable> started;
  private final Settings settings;

  private Infrastructure(List<AutoCloseable> started, Settings settings) {
    this.started = started;
    this.settings = settings;
  }

  /** Blocks while the embedded servers start (seconds) on free ports; call it before any event loop needs them. */
  public static Infrastructure start(Settings settings) throws Exception {
    return start(settings, 0, 0);
  }

  /** As {@link #start(Settings)}, with the broker's and the database's ports fixed (0: a free one). */
  public static Infrastructure start(Settings settings, int kafkaPort, int pgPort) throws Exception {
    List<AutoCloseable> started = new ArrayList<>();
    Map<String, Object> resolved = new HashMap<>();
    try {
      if (settings.embeddedPostgres()) {
        EmbeddedPg pg = EmbeddedPg.start(settings.dataDir().resolve("postgres"), settings.text("pg.database"), settings.text("pg.user"), pgPort);
        started.add(pg);
        resolved.put("pg.host", "127.0.0.1");
        resolved.put("pg.port", pg.port());
      }
      if (settings.embeddedKafka()) {
        EmbeddedKafka kafka = EmbeddedKafka.start(settings.dataDir().resolve("kafka"), kafkaPort);
        started.add(kafka);
        resolved.put("kafka.bootstrap", kafka.bootstrap());
      }
      return new Infrastructure(started, settings.with(resolved));
    } catch (Exception e) {
      closeAll(started);
      throw e;
    }
  }

  /** The settings with the embedded servers' addresses, or the given ones unchanged. */
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
        org.slf4j.LoggerFactory.getLogger(Infrastructure.class).warn("Stopping {} failed", started.get(i), e);
      }
    }
  }
}
