package ccp.laptop;

import ccp.embedded.EmbeddedKafka;
import ccp.embedded.EmbeddedPg;
import ccp.embedded.EmbeddedPg.Durability;
import ccp.platform.infra.LocalServers;

/**
 * The system's seam for local servers, filled with the real embedded Kafka broker (KRaft) and PostgreSQL. The database
 * is durable unless {@code infra.pg-durable} says otherwise: what a person runs keeps every answered order across a
 * power loss.
 */
public final class Embedded {

  public static final LocalServers SERVERS = new LocalServers(
    (dir, database, access, port, durable) -> {
      LocalServers.PgAccess logins = access.call();
      return LocalServers.loopback(EmbeddedPg.start(dir, database,
        new EmbeddedPg.Access(logins.superuserPassword(), logins.logins(), logins.bootstrapSql()), port,
        durable ? Durability.DURABLE : Durability.PROCESS_CRASH_ONLY), EmbeddedPg::port);
    },
    (dir, port, adminPassword, users) -> LocalServers.loopback(EmbeddedKafka.start(dir, port, adminPassword, users), EmbeddedKafka::port));

  private Embedded() {}
}
