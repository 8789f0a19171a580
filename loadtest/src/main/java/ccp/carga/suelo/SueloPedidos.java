package ccp.carga.suelo;

import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * The floor of creating an order: a POST answered 201 once one statement has inserted the order (the shape of
 * {@code pedidos.pedidos}) and its outbox row (of {@code pedidos.outbox}), whose value is as long as the system's
 * {@code EscrituraRealizada} envelope; the relay is woken after the commit, as the system's is.
 */
final class SueloPedidos extends VerticleBase {

  static final String DESPERTAR = "suelo.relevo";
  private static final String CREAR = """
    WITH pedido AS (
           INSERT INTO pedidos.suelo_pedidos (id, actor, tendero, lineas, estado, creado_en)
           VALUES ($1, $2, $3, $4, 'REGISTRADO', $5))
    INSERT INTO pedidos.suelo_outbox (id_evento, topic, clave, valor) VALUES ($6, $7, $8, $9)""";
  /** What the system's envelope adds to an order's fields. */
  private static final int SOBRE = escrituraRealizada(new JsonObject().put("tendero", "T-100")
    .put("lineas", new JsonArray().add(new JsonObject().put("producto", "P-10").put("cantidad", 3))
      .add(new JsonObject().put("producto", "P-20").put("cantidad", 1)))).length()
    - ("T-100" + new JsonArray().add(new JsonObject().put("producto", "P-10").put("cantidad", 3))
      .add(new JsonObject().put("producto", "P-20").put("cantidad", 1)).encode()).length();

  private final SqlClient sql;
  private final int port;

  SueloPedidos(SqlClient sql, int port) {
    this.sql = sql;
    this.port = port;
  }

  static Future<?> tablas(SqlClient pedidos) {
    return pedidos.query("""
      CREATE TABLE IF NOT EXISTS pedidos.suelo_pedidos (id uuid PRIMARY KEY, actor text NOT NULL, tendero text NOT NULL, lineas jsonb NOT NULL,
        estado text NOT NULL CHECK (estado IN ('REGISTRADO', 'ANULADO')), creado_en timestamptz NOT NULL,
        anulado_en timestamptz, motivo_anulacion text);
      CREATE INDEX IF NOT EXISTS suelo_pedidos_por_actor ON pedidos.suelo_pedidos (actor, creado_en DESC);
      CREATE TABLE IF NOT EXISTS pedidos.suelo_outbox (id bigserial PRIMARY KEY, id_evento uuid NOT NULL UNIQUE, topic text NOT NULL,
        clave text NOT NULL, valor text NOT NULL, creado_en timestamptz NOT NULL DEFAULT now(), reclamado_en timestamptz,
        enviado_en timestamptz);
      CREATE INDEX IF NOT EXISTS suelo_outbox_pendientes ON pedidos.suelo_outbox (id) WHERE enviado_en IS NULL""").execute();
  }

  @Override
  public Future<?> start() {
    return vertx.createHttpServer().requestHandler(this::crear).listen(port);
  }

  private void crear(HttpServerRequest request) {
    if (request.method().name().equals("GET")) {
      Hechos.responder(vertx, request, EtapaSuelo.Paso.DESPACHO.entrada());
      return;
    }
    String actor = SueloSesiones.sujeto(request.getHeader("authorization"));
    request.body().compose(body -> {
      JsonObject pedido = body.toJsonObject();
      UUID id = UUID.randomUUID();
      String tendero = pedido.getString("tendero");
      JsonArray lineas = pedido.getJsonArray("lineas");
      String campos = tendero + lineas.encode();
      String valor = id + " " + actor + " " + campos + "x".repeat(Math.max(0, SOBRE - 2 - id.toString().length() - actor.length()));
      return sql.preparedQuery(CREAR).execute(Tuple.from(new Object[] {id, actor, tendero, lineas,
          OffsetDateTime.now(ZoneOffset.UTC), UUID.randomUUID(), Topics.ESCRITURA_REALIZADA, id.toString(), valor}))
        .map(x -> id);
    }).onComplete(ar -> {
      if (ar.succeeded()) {
        vertx.eventBus().send(DESPERTAR, null);
        request.response().setStatusCode(201).putHeader("content-type", "application/json")
          .end(Buffer.buffer("{\"pedido\":\"" + ar.result() + "\"}"));
      } else {
        request.response().setStatusCode(503).end();
      }
    });
  }

  /** The system's record (ccp.pedidos.RepositorioPedidos), for its size. */
  private static String escrituraRealizada(JsonObject solicitud) {
    String id = UUID.randomUUID().toString();
    String idEscritura = UUID.randomUUID().toString();
    Instant creado = Instant.now();
    return new Envelope(idEscritura, EventTypes.ESCRITURA_REALIZADA, "/pedidos", creado, id, new JsonObject()
      .put("id_escritura", idEscritura).put("servicio", "pedidos").put("operacion", EventTypes.CREAR_PEDIDO).put("pedido", id)
      .put("actor", "vendedor-1000").put("tendero", solicitud.getString("tendero")).put("lineas", solicitud.getJsonArray("lineas"))
      .put("t_escritura", creado.toString())).encode();
  }
}
