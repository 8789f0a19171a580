package ccp.platform.infra;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.ToIntFunction;

/**
 * How a process starts a PostgreSQL and a Kafka broker in its own JVM when none is configured: the seam by which the
 * laptop jar and the tests plug in the embedded servers, which the production artifact does not hold.
 */
public record LocalServers(Postgres postgres, Kafka kafka) {

  private static final Postgres NO_POSTGRES = (dir, database, access, port, durable) -> {
    throw Infrastructure.missing("PostgreSQL", "pg.host");
  };
  private static final Kafka NO_KAFKA = (dir, port, adminPassword, users) -> {
    throw Infrastructure.missing("Kafka broker", "kafka.bootstrap");
  };

  /** The production artifact's: configuring both servers is required. */
  public static final LocalServers NONE = new LocalServers(NO_POSTGRES, NO_KAFKA);

  /** Whether it can start a database: the production artifact refuses before it writes any credentials. */
  public boolean startsPostgres() {
    return postgres != NO_POSTGRES;
  }

  /** Whether it can start a broker: the production artifact refuses before it writes any credentials. */
  public boolean startsKafka() {
    return kafka != NO_KAFKA;
  }

  /** A started server: where it listens and how to stop it. */
  public record Running(String host, int port, AutoCloseable server) {

    public String address() {
      return host + ":" + port;
    }
  }

  /** A server started on loopback, whose port {@code port} reads. */
  public static <S extends AutoCloseable> Running loopback(S server, ToIntFunction<S> port) {
    return new Running("127.0.0.1", port.applyAsInt(server), server);
  }

  /**
   * Who may log in to a local PostgreSQL: the superuser's password, each login role's, and the superuser's SQL that
   * creates the roles, schemas and group roles ({@code db/bootstrap.sql}), run at every start (it is idempotent).
   */
  public record PgAccess(String superuserPassword, Map<String, String> logins, String bootstrapSql) {}

  @FunctionalInterface
  public interface Postgres {
    /**
     * Keeps its data in {@code dir}; {@code database} and the roles of {@code access} (read when the server starts, so
     * that an artifact that starts none writes no password) exist once started, each login only with its password;
     * port 0: a free one; {@code durable}: each commit is flushed to disk before it is acknowledged.
     */
    Running start(Path dir, String database, Callable<PgAccess> access, int port, boolean durable) throws Exception;
  }

  @FunctionalInterface
  public interface Kafka {
    /**
     * Keeps its log in {@code dir}; port 0: a free one. Clients authenticate with SCRAM-SHA-512 as the super user
     * {@code admin} or as one of {@code users} (name → password); no one else may do anything.
     */
    Running start(Path dir, int port, String adminPassword, Map<String, String> users) throws Exception;
  }
}
