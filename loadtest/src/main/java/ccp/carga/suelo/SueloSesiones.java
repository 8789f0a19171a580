package ccp.carga.suelo;

import ccp.carga.flota.Flota;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventPublisher;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.KafkaConfig;
import ccp.platform.kafka.Topics;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

/**
 * The floor of opening a session: a POST answered 201 once its row is inserted (the shape of {@code gestor.sesiones})
 * and a record of the size of a {@code SesionAbierta} envelope is acknowledged by the broker, keyed by the vendedor.
 * The vendedor is the token's subject, read without checking the token: the floor verifies nothing.
 */
final class SueloSesiones extends VerticleBase {

  private static final String INSERTAR = "INSERT INTO gestor.suelo_sesiones (id, actor, huella) VALUES ($1, $2, $3)";
  /** The length of the system's SesionAbierta envelope for a vendedor's own device. */
  static final int TAMANO_REGISTRO = sesionAbierta("vendedor-1000", "casa-vendedor-1000").length();

  private final KafkaConfig kafka;
  private final SqlClient sql;
  private final int port;
  private EventPublisher publisher;

  SueloSesiones(KafkaConfig kafka, SqlClient sql, int port) {
    this.kafka = kafka;
    this.sql = sql;
    this.port = port;
  }

  /** The floor's tables, as the system's, and each vendedor's own device registered. */
  static Future<?> tablas(SqlClient gestor, SqlClient seguridad, int vendedores) {
    List<Tuple> casas = new ArrayList<>();
    for (int i = 0; i < vendedores; i++) casas.add(Tuple.of(Flota.vendedor(i), Flota.casa(Flota.vendedor(i))));
    return gestor.query("""
        CREATE TABLE IF NOT EXISTS gestor.suelo_sesiones (id uuid PRIMARY KEY, actor text NOT NULL, huella text NOT NULL,
          abierta_en timestamptz NOT NULL DEFAULT now(), terminada_en timestamptz, motivo_fin text);
        CREATE INDEX IF NOT EXISTS suelo_sesiones_abiertas ON gestor.suelo_sesiones (actor) WHERE terminada_en IS NULL""").execute()
      .compose(x -> seguridad.query("""
        CREATE TABLE IF NOT EXISTS seguridad.suelo_registro (vendedor text PRIMARY KEY, huella text NOT NULL,
          registrado_en timestamptz NOT NULL DEFAULT now())""").execute())
      .compose(x -> seguridad.preparedQuery("INSERT INTO seguridad.suelo_registro (vendedor, huella) VALUES ($1, $2) ON CONFLICT DO NOTHING").executeBatch(casas));
  }

  @Override
  public Future<?> start() {
    publisher = EventPublisher.create(vertx, kafka);
    return vertx.createHttpServer().requestHandler(this::abrir).listen(port);
  }

  @Override
  public Future<?> stop() {
    return publisher.close();
  }

  private void abrir(HttpServerRequest request) {
    if (request.method().name().equals("GET")) {
      Hechos.responder(vertx, request, Topics.SESION_ABIERTA);
      return;
    }
    String vendedor = sujeto(request.getHeader("authorization"));
    request.body().compose(body -> {
      String huella = body.toJsonObject().getString("huella");
      UUID sesion = UUID.randomUUID();
      return sql.preparedQuery(INSERTAR).execute(Tuple.of(sesion, vendedor, huella))
        .compose(x -> publisher.publishEncoded(Topics.SESION_ABIERTA, vendedor, registro(sesion, huella)))
        .map(x -> sesion);
    }).onComplete(ar -> {
      if (ar.succeeded()) {
        request.response().setStatusCode(201).putHeader("content-type", "application/json")
          .end(Buffer.buffer("{\"sesion\":\"" + ar.result() + "\"}"));
      } else {
        request.response().setStatusCode(503).end();
      }
    });
  }

  /** The system's record (ccp.gestor.ProductorEventos), for its size. */
  private static String sesionAbierta(String vendedor, String huella) {
    String sesion = UUID.randomUUID().toString();
    Instant t0 = Instant.now();
    JsonObject data = new JsonObject().put("sesion", sesion).put("vendedor", vendedor).put("huella", huella).put("t0", t0.toString());
    return new Envelope(sesion, EventTypes.SESION_ABIERTA, "/gestor", t0, vendedor, data).encode();
  }

  /** The huella and the session, padded to a SesionAbierta envelope's size. */
  static String registro(UUID sesion, String huella) {
    String value = huella + " " + sesion + " ";
    return value.length() >= TAMANO_REGISTRO ? value : value + "x".repeat(TAMANO_REGISTRO - value.length());
  }

  /** The subject of a bearer JWT, its signature unchecked. */
  static String sujeto(String authorization) {
    String token = authorization.substring(authorization.indexOf(' ') + 1);
    String payload = token.substring(token.indexOf('.') + 1, token.lastIndexOf('.'));
    return new JsonObject(Buffer.buffer(Base64.getUrlDecoder().decode(payload))).getString("sub");
  }
}
