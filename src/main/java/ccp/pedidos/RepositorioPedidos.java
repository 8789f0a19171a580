package ccp.pedidos;

import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import ccp.platform.outbox.Outbox;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.UUID;

/** Pedidos' tables: the order, its outbox event and the Idempotency-Key record, written in one transaction. */
final class RepositorioPedidos {

  /** The stored first answer for an Idempotency-Key. */
  record Respuesta(int status, JsonObject body, String huella) {}

  /** Thrown inside the transaction when the key is already taken, so that nothing of this attempt is kept. */
  static final class ClaveUsada extends RuntimeException {
    ClaveUsada() {
      super(null, null, false, false);
    }
  }

  private static final String RESERVAR_CLAVE = """
    INSERT INTO pedidos.idempotencia (actor, clave, huella_cuerpo, estado_http, respuesta) VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (actor, clave) DO NOTHING""";
  private static final String RESPUESTA = "SELECT huella_cuerpo, estado_http, respuesta FROM pedidos.idempotencia WHERE actor = $1 AND clave = $2";
  private static final String INSERTAR = """
    INSERT INTO pedidos.pedidos (id, actor, tendero, lineas, estado, creado_en) VALUES ($1, $2, $3, $4, 'REGISTRADO', $5)""";
  private static final String LEER = """
    SELECT id, actor, tendero, lineas, estado, creado_en, anulado_en, motivo_anulacion FROM pedidos.pedidos WHERE id = $1""";
  private static final String ANULAR = """
    UPDATE pedidos.pedidos SET estado = 'ANULADO', anulado_en = now(), motivo_anulacion = $2
    WHERE id = $1 AND estado <> 'ANULADO'""";

  private final Pool pool;
  private final SqlClient sql;
  private final Outbox outbox;

  RepositorioPedidos(Pool pool, SqlClient sql, Outbox outbox) {
    this.pool = pool;
    this.sql = sql;
    this.outbox = outbox;
  }

  /**
   * Writes the order and its {@code escritura.realizada} event, and the Idempotency-Key's answer when there is a key.
   * Fails with {@link ClaveUsada} (and writes nothing) when the key was used before.
   */
  Future<JsonObject> crear(UUID id, String actor, SolicitudPedido solicitud, String clave) {
    Instant creado = Instant.now();
    JsonObject pedido = new JsonObject()
      .put("pedido", id.toString()).put("estado", "REGISTRADO").put("actor", actor)
      .put("tendero", solicitud.tendero()).put("lineas", solicitud.lineas()).put("creado_en", creado.toString());
    String idEscritura = UUID.randomUUID().toString();
    Envelope escritura = new Envelope(idEscritura, EventTypes.ESCRITURA_REALIZADA, "/pedidos", creado, id.toString(), new JsonObject()
      .put("id_escritura", idEscritura).put("servicio", "pedidos").put("operacion", "CREAR_PEDIDO").put("pedido", id.toString())
      .put("actor", actor).put("tendero", solicitud.tendero()).put("lineas", solicitud.lineas()).put("t_escritura", creado.toString()));
    return pool.withTransaction(conn -> reservar(conn, actor, clave, solicitud.huella(), pedido)
      .compose(x -> conn.preparedQuery(INSERTAR).execute(Tuple.of(id, actor, solicitud.tendero(), solicitud.lineas(), creado.atOffset(ZoneOffset.UTC))))
      .compose(x -> outbox.add(conn, Topics.ESCRITURA_REALIZADA, id.toString(), escritura))
      .map(pedido));
  }

  private Future<Void> reservar(SqlConnection conn, String actor, String clave, String huella, JsonObject respuesta) {
    if (clave == null) return Future.succeededFuture();
    return conn.preparedQuery(RESERVAR_CLAVE).execute(Tuple.of(actor, clave, huella, 201, respuesta))
      .compose(rows -> rows.rowCount() == 1 ? Future.succeededFuture() : Future.failedFuture(new ClaveUsada()));
  }

  Future<Optional<Respuesta>> respuestaGuardada(String actor, String clave) {
    return sql.preparedQuery(RESPUESTA).execute(Tuple.of(actor, clave)).map(rows -> {
      if (rows.size() == 0) return Optional.empty();
      Row row = rows.iterator().next();
      return Optional.of(new Respuesta(row.getInteger("estado_http"), row.getJsonObject("respuesta"), row.getString("huella_cuerpo")));
    });
  }

  Future<Optional<JsonObject>> leer(UUID id) {
    return sql.preparedQuery(LEER).execute(Tuple.of(id)).map(rows -> {
      if (rows.size() == 0) return Optional.empty();
      Row row = rows.iterator().next();
      return Optional.of(new JsonObject()
        .put("pedido", row.getUUID("id").toString())
        .put("estado", row.getString("estado"))
        .put("actor", row.getString("actor"))
        .put("tendero", row.getString("tendero"))
        .put("lineas", row.getJsonArray("lineas"))
        .put("creado_en", row.getOffsetDateTime("creado_en").toInstant().toString())
        .put("anulado_en", row.getOffsetDateTime("anulado_en") == null ? null : row.getOffsetDateTime("anulado_en").toInstant().toString())
        .put("motivo_anulacion", row.getString("motivo_anulacion")));
    });
  }

  /** True when this call annulled the order; false when it was annulled already. */
  Future<Boolean> anular(UUID id, String motivo) {
    return sql.preparedQuery(ANULAR).execute(Tuple.of(id, motivo)).map(rows -> rows.rowCount() == 1);
  }
}
