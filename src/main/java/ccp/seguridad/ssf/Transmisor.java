package ccp.seguridad.ssf;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlClient;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The Notificador's transmitter: an alert becomes its SETs (see {@link EventosDeAlerta}), one per event for each stream
 * that is not disabled and asked for that event, each addressed to its stream's {@code aud} and stored, then left to
 * the {@link RepartidorSet} (push) or the receiver's poll, which sign them when they send them. {@code iat} is the
 * alert's time, so a redelivered alert makes the same claims — and its SETs are stored once anyway.
 */
public final class Transmisor {

  private final Vertx vertx;
  private final Streams flujos;
  private final String issuer;

  public Transmisor(Vertx vertx, SqlClient sql, String issuer) {
    this.vertx = vertx;
    this.flujos = new Streams(sql);
    this.issuer = issuer;
  }

  public Future<Void> encolar(UUID idAlerta, JsonObject alerta, Instant cuando) {
    return flujos.receptores().compose(receptores -> {
      if (receptores.isEmpty()) return Future.succeededFuture();
      List<EventoSsf> eventos = EventosDeAlerta.de(alerta, cuando);
      List<Streams.Entrega> entregas = new ArrayList<>();
      for (Stream flujo : receptores) {
        for (EventoSsf evento : eventos) {
          if (!flujo.entrega(evento.tipo())) continue;
          String claims = evento.claims(issuer, flujo.aud(), cuando.getEpochSecond()).encode();
          entregas.add(new Streams.Entrega(flujo.id(), evento.jti(), evento.tipo(), claims));
        }
      }
      return flujos.encolar(idAlerta, entregas).onSuccess(x -> {
        if (!entregas.isEmpty()) vertx.eventBus().send(RepartidorSet.DESPERTAR, null);
      });
    });
  }
}
