package ccp.laptop;

import ccp.embedded.EmbeddedKafka;
import ccp.embedded.EmbeddedPg;
import ccp.embedded.EmbeddedPg.Durability;
import ccp.platform.infra.LocalServers;

/**
 * The system's seam for local servers, filled with the real embedded Kafka broker (KRaft) and PostgreSQL. The database
 * is durable as PostgreSQL is by default: what a person runs keeps every answered order across a power loss.
 */
public final class Embedded {

  public static final LocalServers SERVERS = new LocalServers(
    (dir, database, user, port) -> LocalServers.loopback(EmbeddedPg.start(dir, database, user, port, Durability.DURABLE),
      EmbeddedPg::port),
    (dir, port) -> LocalServers.loopback(EmbeddedKafka.start(dir, port), EmbeddedKafka::port));

  private Embedded() {}
}
