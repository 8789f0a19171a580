package ccp.carga.suelo;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;

/** {@code GET} on the floor: how many records the consumer of the path's last topic has processed, as plain text. */
final class Hechos {

  private Hechos() {}

  static void responder(Vertx vertx, HttpServerRequest request, String topic) {
    vertx.eventBus().<Long>request(ConsumidorSuelo.hechos(topic), null)
      .onComplete(ar -> request.response().setStatusCode(ar.succeeded() ? 200 : 503)
        .end(ar.succeeded() ? String.valueOf(ar.result().body()) : ""));
  }
}
