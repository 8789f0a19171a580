package ccp.platform.outbox;

import ccp.platform.http.BacklogAdmission;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The transactional outbox of one service schema ({@code <schema>.outbox}): the writer inserts the event row in the
 * transaction (or the very statement) of its business write, and {@link RelevoOutbox} publishes it after commit. Each relay step is one
 * atomic statement, so several relays (one per replica) share the table without locks of their own.
 * <p>
 * Per-key order across relays: a relay claims a row only together with every earlier unsent row of its topic and key,
 * so a key's rows are never split between two relays in flight (one relay's producer keeps their order). A row held
 * back that way is claimed once the earlier one is sent. A claim identifies itself by the statement's time
 * ({@code now()}, the same for every row of it), so a relay releases and renews exactly the rows it still holds.
 * <p>
 * The schema's outbox needs, beside {@code (id) WHERE enviado_en IS NULL}, an index on
 * {@code (topic, clave, id) WHERE enviado_en IS NULL} for the per-key check.
 */
public final class Outbox {

  /** A claimed row; {@code claimedAt} identifies this relay's claim, so it releases only its own. */
  public record PendingEvent(long id, String topic, String key, String value, OffsetDateTime createdAt, OffsetDateTime claimedAt) {}

  private final String schema;
  private final String claim;
  private final String renew;
  private final String markSent;
  private final String release;
  private final String purge;
  private final String oldest;

  /** {@code schema} is one of the code's own service schemas, never input. */
  public Outbox(String schema) {
    if (!schema.matches("[a-z]+")) throw new IllegalArgumentException("not a schema name: " + schema);
    this.schema = schema;
    String table = schema + ".outbox";
    // SKIP LOCKED lets two relays claim disjoint batches; an expired claim (a relay died) is claimed again. Of the
    // candidates, a row with an earlier unsent row of its key outside them (another relay's, or locked by its claim
    // running now, or expired but locked) is left: the snapshot may show that row unsent when it was just sent, which
    // only delays this one to the next claim, never reorders.
    this.claim = "WITH candidatos AS ("
      + " SELECT id, topic, clave FROM " + table + " WHERE enviado_en IS NULL"
      + " AND (reclamado_en IS NULL OR reclamado_en < now() - make_interval(secs => $1::float8 / 1000))"
      + " ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED),"
      + " en_orden AS (SELECT c.id FROM candidatos c WHERE NOT EXISTS ("
      + " SELECT 1 FROM " + table + " antes WHERE antes.topic = c.topic AND antes.clave = c.clave AND antes.id < c.id"
      + " AND antes.enviado_en IS NULL AND antes.id NOT IN (SELECT id FROM candidatos)))"
      + " UPDATE " + table + " o SET reclamado_en = now() FROM en_orden WHERE o.id = en_orden.id"
      + " RETURNING o.id, o.topic, o.clave, o.valor, o.creado_en, o.reclamado_en";
    this.renew = "UPDATE " + table + " SET reclamado_en = now() WHERE id = ANY($1) AND reclamado_en = $2 AND enviado_en IS NULL"
      + " RETURNING reclamado_en";
    this.markSent = "UPDATE " + table + " SET enviado_en = now() WHERE id = ANY($1)";
    this.release = "UPDATE " + table + " SET reclamado_en = NULL WHERE id = ANY($1) AND reclamado_en = $2 AND enviado_en IS NULL";
    this.purge = "DELETE FROM " + table + " WHERE enviado_en < now() - interval '1 hour'";
    // A row waits for a relay from its commit, or from its claim's expiry when a relay died holding it; rows under a
    // live claim are being published. The partial index of the unsent rows by id finds the first such row past the
    // claimed batches in flight.
    this.oldest = "SELECT (extract(epoch FROM now() - coalesce(reclamado_en + make_interval(secs => $1::float8 / 1000),"
      + " creado_en)) * 1000)::bigint AS edad FROM " + table + " WHERE enviado_en IS NULL"
      + " AND (reclamado_en IS NULL OR reclamado_en < now() - make_interval(secs => $1::float8 / 1000)) ORDER BY id LIMIT 1";
  }

  public String schema() {
    return schema;
  }

  /** The claim's statement, for a test to read its plan. */
  String claimStatement() {
    return claim;
  }

  Future<List<PendingEvent>> claim(SqlClient sql, long claimTimeoutMs, int batch) {
    return sql.preparedQuery(claim).execute(Tuple.of(claimTimeoutMs, batch)).map(rows -> {
      List<PendingEvent> claimed = new ArrayList<>(rows.size());
      for (Row row : rows) {
        claimed.add(new PendingEvent(row.getLong("id"), row.getString("topic"), row.getString("clave"), row.getString("valor"),
          row.getOffsetDateTime("creado_en"), row.getOffsetDateTime("reclamado_en")));
      }
      claimed.sort(Comparator.comparingLong(PendingEvent::id));
      return claimed;
    });
  }

  /**
   * Extends a claim still held ({@code claimedAt}) to now: its relay is alive and its sends are in flight. Answers the
   * claim's new time, or empty when no row of it is still held (all sent, or taken after it expired).
   */
  Future<Optional<OffsetDateTime>> renew(SqlClient sql, List<Long> ids, OffsetDateTime claimedAt) {
    return sql.preparedQuery(renew).execute(Tuple.of(ids.toArray(Long[]::new), claimedAt)).map(rows -> rows.size() == 0
      ? Optional.empty() : Optional.of(rows.iterator().next().getOffsetDateTime("reclamado_en")));
  }

  Future<Void> markSent(SqlClient sql, List<Long> ids) {
    return ids.isEmpty() ? Future.succeededFuture() : sql.preparedQuery(markSent).execute(Tuple.of(ids.toArray(Long[]::new))).mapEmpty();
  }

  Future<Void> release(SqlClient sql, List<Long> ids, OffsetDateTime claimedAt) {
    return ids.isEmpty() ? Future.succeededFuture()
      : sql.preparedQuery(release).execute(Tuple.of(ids.toArray(Long[]::new), claimedAt)).mapEmpty();
  }

  Future<Integer> purgeSent(SqlClient sql) {
    return sql.query(purge).execute().map(rows -> rows.rowCount());
  }

  /**
   * How long the oldest row waiting for a relay has waited, in milliseconds (0 when none waits): unsent and not under a
   * live claim, counted from its commit or from the expiry of the claim of a relay that died.
   */
  Future<Long> oldestWaitingMs(SqlClient sql, long claimTimeoutMs) {
    return sql.preparedQuery(oldest).execute(Tuple.of(claimTimeoutMs)).map(rows -> rows.size() == 0 ? 0L : Math.max(0L, rows.iterator().next().getLong("edad")));
  }

  /**
   * The door of this schema's App writes: refuses a write while the oldest row waiting for a relay has waited longer
   * than {@code outbox.admission-max-age-ms}, as the relay of this process last said (a row a dead relay had claimed
   * waits from its claim's expiry). An accepted write is then published within about that bound, so the Detector sees
   * an improper one in time (B2–B3), and the chain starts. Create it in the mounting verticle's start.
   */
  public BacklogAdmission admission(Vertx vertx) {
    return new BacklogAdmission(vertx, backlogAddress());
  }

  /** The event-bus address on which the relay tells this process's writers how far behind it is. */
  String backlogAddress() {
    return "ccp.relevo-outbox.atraso." + schema;
  }

  /** The event-bus address on which a writer of this schema wakes its relay after a commit. */
  public String wakeAddress() {
    return "ccp.relevo-outbox." + schema;
  }
}
