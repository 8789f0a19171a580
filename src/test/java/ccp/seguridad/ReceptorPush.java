package ccp.seguridad;

import ccp.platform.http.Jose;
import ccp.support.Http;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Shared Signals receiver started by a test: a push stream of every event, created at seguridad by a SEGURIDAD
 * client, whose endpoint answers 202 and keeps each SET's claims. Closed, its stream is deleted — the streams live in
 * the shared database, and a later test's alerts must not be pushed to a receiver that left.
 */
final class ReceptorPush implements AutoCloseable {

  private final List<JsonObject> recibidos = new CopyOnWriteArrayList<>();
  private final HttpServer server;
  private final String seguridadUrl;
  private final String cliente;
  private String flujo;

  private ReceptorPush(Vertx vertx, String seguridadUrl, String cliente) throws Exception {
    this.seguridadUrl = seguridadUrl;
    this.cliente = cliente;
    this.server = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
      recibidos.add(Jose.parts(body.toString()).payload());
      request.response().setStatusCode(202).end();
    })).listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
  }

  /** {@code cliente}: a SEGURIDAD actor's token, which owns the stream. */
  static ReceptorPush registrado(Vertx vertx, String seguridadUrl, String cliente) throws Exception {
    ReceptorPush receptor = new ReceptorPush(vertx, seguridadUrl, cliente);
    Http.Response creado = Http.post(seguridadUrl + "/v1/ssf/stream", cliente, new JsonObject().put("delivery", new JsonObject()
      .put("method", "urn:ietf:rfc:8935").put("endpoint_url", "http://127.0.0.1:" + receptor.server.actualPort() + "/ssf")).encode());
    if (creado.status() != 201) receptor.close();
    assertThat(creado.status()).as(creado.body()).isEqualTo(201);
    receptor.flujo = creado.json().getString("stream_id");
    return receptor;
  }

  /** The claims of the SETs received about {@code actor}, in arrival order. */
  List<JsonObject> de(String actor) {
    return recibidos.stream().filter(c -> actor.equals(c.getJsonObject("sub_id").getString("id"))).toList();
  }

  /** The event types of the SETs received about {@code actor}. */
  List<String> tipos(String actor) {
    return de(actor).stream().map(c -> c.getJsonObject("events").fieldNames().iterator().next()).toList();
  }

  @Override
  public void close() throws Exception {
    if (flujo != null) Http.send("DELETE", seguridadUrl + "/v1/ssf/stream?stream_id=" + flujo, cliente, "");
    server.close().await(10, TimeUnit.SECONDS);
  }
}
