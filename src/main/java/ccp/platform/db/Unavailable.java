package ccp.platform.db;

import io.vertx.core.VertxException;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;

import java.net.ConnectException;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/**
 * Failures that say the database (or the way to it) is not answering, not that the request is wrong: the HTTP routes
 * answer them 503 with {@code Retry-After}, since the same request will succeed once the database answers again.
 */
public final class Unavailable {

  /**
   * SQLSTATEs of a server that cannot serve now: {@code 57014} query_canceled ({@code statement_timeout}),
   * {@code 57P01} admin_shutdown, {@code 57P03} cannot_connect_now, {@code 53300} too_many_connections.
   */
  private static final Set<String> SERVER_STATES = Set.of("57014", "57P01", "57P03", "53300");

  /**
   * vertx-sql-client 5.0 fails a wait for a pool connection past {@code PoolOptions.connectionTimeout} with one shared,
   * private {@link VertxException} instance, not a {@link TimeoutException}: its message is the only mark it has.
   */
  private static final String POOL_WAIT_TIMEOUT = "Timeout waiting for connection";

  private Unavailable() {}

  public static boolean is(Throwable failure) {
    return failure instanceof TimeoutException
      || failure instanceof ConnectException
      || failure instanceof ClosedConnectionException
      || failure instanceof PgException pg && SERVER_STATES.contains(pg.getSqlState())
      || failure instanceof VertxException && POOL_WAIT_TIMEOUT.equals(failure.getMessage());
  }
}
