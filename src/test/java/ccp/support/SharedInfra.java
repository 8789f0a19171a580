package ccp.support;

import ccp.app.KafkaAccess;
import ccp.embedded.EmbeddedKafka;
import ccp.embedded.EmbeddedPg;
import ccp.embedded.EmbeddedPg.Durability;
import ccp.embedded.FreePorts;
import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.platform.db.Migrations;
import ccp.platform.db.PgConfig;
import ccp.platform.infra.Infrastructure;
import ccp.platform.infra.LocalServers;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The one embedded Kafka broker and PostgreSQL of the test JVM, started on first use and stopped when the JVM
 * exits: every suite shares them, as STYLE.md asks. Tests keep apart by using their own actors and ids.
 */
public final class SharedInfra {

  /** The embedded servers, as the laptop jar plugs them in ({@code ccp.laptop.Embedded}, which depends on this module). */
  public static final LocalServers EMBEDDED = new LocalServers(
    (dir, database, access, port, durable) -> {
      LocalServers.PgAccess logins = access.call();
      return LocalServers.loopback(EmbeddedPg.start(dir, database,
        new EmbeddedPg.Access(logins.superuserPassword(), logins.logins(), logins.bootstrapSql()), port,
        durable ? Durability.DURABLE : Durability.PROCESS_CRASH_ONLY), EmbeddedPg::port);
    },
    (dir, port, adminPassword, users) -> LocalServers.loopback(EmbeddedKafka.start(dir, port, adminPassword, users), EmbeddedKafka::port));

  private static Infrastructure infrastructure;

  private SharedInfra() {}

  /**
   * Settings of a new cluster on the shared infrastructure: free ports for every role, and the URLs by which the
   * roles call each other pointing at them. Processes of one cluster share these; see {@link #process}.
   */
  public static synchronized Settings settings(Map<String, Object> overrides) {
    if (infrastructure == null) infrastructure = start();
    Map<String, Object> values = new HashMap<>();
    values.put("management.port", freePort());
    values.put("gateway.port", freePort());
    for (String role : new String[] {"gestor", "seguridad", "pedidos", "cadena", "inventario"}) {
      int port = freePort();
      values.put(role + ".port", port);
      values.put(role + ".url", "http://127.0.0.1:" + port);
    }
    values.put("http.host", "127.0.0.1");
    values.put("http.instances", 2);
    values.put("kafka.session-timeout-ms", 6000);
    values.put("kafka.commit-interval-ms", 50);
    // The suite measures behaviour, not a cold JIT: the warm-up has its own test (WarmUpTest).
    values.put("gestor.warm-up-ms", 0);
    // Nor the door's refusals while an event loop runs behind: on a machine as loaded as the suite's they would refuse
    // the writes a test expects to succeed. AdmissionTest has its own.
    values.put("http.admission-delay-ms", 0);
    // Nor the doors' refusals while the consumers behind them run late: the suite's clusters share one broker, and a test
    // that runs a door without its consumers leaves records the next one's consumers must first drain.
    // ColasAtrasadasTest has its own.
    values.put("pedidos.admission-max-chain-lag-ms", 0);
    values.put("gestor.admission-max-verificador-lag-ms", 0);
    values.putAll(overrides);
    return infrastructure.settings().with(values);
  }

  public static Settings settings() {
    return settings(Map.of());
  }

  /** The data directory of the shared infrastructure: the development issuer's and the roles' peer keys. */
  public static synchronized Path dataDir() {
    if (infrastructure == null) infrastructure = start();
    return infrastructure.settings().dataDir();
  }

  /** The shared infrastructure's settings if a suite has started it, without starting it. */
  static synchronized Optional<Settings> ifStarted() {
    return Optional.ofNullable(infrastructure).map(Infrastructure::settings);
  }

  /** Another process of the same cluster: its own management port (and {@code overrides}, e.g. a second gateway's). */
  public static Settings process(Settings cluster, Map<String, Object> overrides) {
    Map<String, Object> values = new HashMap<>(overrides);
    values.putIfAbsent("management.port", freePort());
    return cluster.with(values);
  }

  private static Infrastructure start() {
    try {
      Path dir = Files.createTempDirectory("ccp-test-infra");
      // The suite measures the code, not the disk: commits are not flushed (STYLE.md, as vertx-sql-client's own suite).
      Settings base = defaults().with(Map.of("data.dir", dir.toString(), "infra.pg-durable", false));
      Infrastructure started = Infrastructure.start(base, EMBEDDED, KafkaAccess.grants());
      Runtime.getRuntime().addShutdownHook(new Thread(started::close, "ccp-test-infra-stop"));
      migrateAll(started.settings());
      return started;
    } catch (Exception e) {
      throw new IllegalStateException("cannot start the embedded Kafka and PostgreSQL", e);
    }
  }

  /**
   * Every role's schemas, each as its owner, as a deployment whose every role has started: a test that starts a
   * gateway without the seguridad role (whose migrations create the Lista de revocación it reads) then does not
   * depend on which suite ran first.
   */
  private static void migrateAll(Settings settings) {
    for (Role role : Role.values()) {
      Migrations.migrate(PgConfig.of(settings, role.id()), settings.flag("demo.seed"), role.schemas());
    }
  }

  /** The committed defaults, {@code conf/ccp.json}, as a fresh clone has them. */
  public static Settings defaults() {
    try {
      return Settings.from(new JsonObject(Files.readString(Path.of("conf/ccp.json"))), Map.of());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A free port for a server the test starts later, which no connection opened meanwhile can take: {@link FreePorts}. */
  public static int freePort() {
    return FreePorts.pick();
  }
}
