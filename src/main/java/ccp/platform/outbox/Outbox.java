package ccp.platform.outbox;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The transactional outbox of one service schema ({@code <schema>.outbox}): the writer inserts the event row in the
 * transaction (or the very statement) of its business write, and {@link RelevoOutbox} publishes it after commit. Each relay step is one
 * atomic statement, so several relays (one per replica) share the table without locks of their own.
 */
public final class Outbox {

  /** A claimed row; {@code claimedAt} identifies this relay's claim, so it releases only its own. */
  public record PendingEvent(long id, String topic, String key, String value, OffsetDateTime createdAt, OffsetDateTime claimedAt) {}

  private final String schema;
  private final String claim;
  private final String markSent;
  private final String release;
  private final String purge;

  /** {@code schema} is one of the code's own service schemas, never input. */
  public Outbox(String schema) {
    if (!schema.matches("[a-z]+")) throw new IllegalArgumentException("not a schema name: " + schema);
    this.schema = schema;
    String table = schema + ".outbox";
    // SKIP LOCKED lets two relays claim disjoint batches; an expired claim (a relay died) is claimed again.
    this.claim = "UPDATE " + table + " SET reclamado_en = clock_timestamp() WHERE id IN ("
      + " SELECT id FROM " + table + " WHERE enviado_en IS NULL"
      + " AND (reclamado_en IS NULL OR reclamado_en < now() - make_interval(secs => $1::float8 / 1000))"
      + " ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)"
      + " RETURNING id, topic, clave, valor, creado_en, reclamado_en";
    this.markSent = "UPDATE " + table + " SET enviado_en = now() WHERE id = ANY($1)";
    this.release = "UPDATE " + table + " SET reclamado_en = NULL WHERE id = ANY($1) AND reclamado_en = $2 AND enviado_en IS NULL";
    this.purge = "DELETE FROM " + table + " WHERE enviado_en < now() - interval '1 hour'";
  }

  public String schema() {
    return schema;
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

  /** The event-bus address on which a writer of this schema wakes its relay after a commit. */
  public String wakeAddress() {
    return "ccp.relevo-outbox." + schema;
  }
}
