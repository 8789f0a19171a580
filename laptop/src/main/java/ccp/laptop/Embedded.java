package ccp.laptop;

import ccp.embedded.EmbeddedKafka;
import ccp.embedded.EmbeddedPg;
import ccp.embedded.EmbeddedPg.Durability;
import ccp.embedded.SupervisedPg;
import ccp.platform.infra.LocalServers;

/**
 * The system's seam for local servers, filled with the real embedded Kafka broker (KRaft) and PostgreSQL. The database
 * is durable unless {@code infra.pg-durable} says otherwise: what a person runs keeps every answered order across a
 * power loss. It is supervised ({@link SupervisedPg}): a PostgreSQL that crashes is started again on its port, so the
 * infra process and the all-in-one heal without a person.
 */
public final class Embedded {

  public static final LocalServers SERVERS = new LocalServers(
    (dir, database, access, port, durable) -> {
      LocalServers.PgAccess logins = access.call();
      EmbeddedPg.Access pgAccess = new EmbeddedPg.Access(logins.superuserPassword(), logins.logins(), logins.bootstrapSql());
      Durability durability = durable ? Durability.DURABLE : Durability.PROCESS_CRASH_ONLY;
      return LocalServers.loopback(SupervisedPg.start(p -> EmbeddedPg.start(dir, database, pgAccess, p, durability), port),
        SupervisedPg::port);
    },
    (dir, port, adminPassword, users) -> LocalServers.loopback(EmbeddedKafka.start(dir, port, adminPassword, users), EmbeddedKafka::port));

  private Embedded() {}
}
