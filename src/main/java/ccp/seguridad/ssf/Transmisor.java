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
 * that is not disabled and asked for that event, each signed for its stream's {@code aud} and stored, then left to
 * the {@link RepartidorSet} (push) or the receiver's poll. {@code iat} is the alert's time, so a redelivered alert
 * signs the same claims — and its SETs, stored once, are not signed again anyway.
 */
public final class Transmisor {

  private final Vertx vertx;
  private final Flujos flujos;
  private final FirmaSet firma;
  private final String issuer;

  public Transmisor(Vertx vertx, SqlClient sql, FirmaSet firma, String issuer) {
    this.vertx = vertx;
    this.flujos = new Flujos(sql);
    this.firma = firma;
    this.issuer = issuer;
  }

  public Future<Void> encolar(UUID idAlerta, JsonObject alerta, Instant cuando) {
    return flujos.receptores().compose(receptores -> {
      if (receptores.isEmpty()) return Future.succeededFuture();
      List<EventoSsf> eventos = EventosDeAlerta.de(alerta, cuando);
      List<Flujos.Entrega> entregas = new ArrayList<>();
      for (Flujo flujo : receptores) {
        for (EventoSsf evento : eventos) {
          if (!flujo.entrega(evento.tipo())) continue;
          String set = firma.firmar(evento.claims(issuer, flujo.aud(), cuando.getEpochSecond()));
          entregas.add(new Flujos.Entrega(flujo.id(), evento.jti(), evento.tipo(), set));
        }
      }
      return flujos.encolar(idAlerta, entregas).onSuccess(x -> {
        if (!entregas.isEmpty()) vertx.eventBus().send(RepartidorSet.DESPERTAR, null);
      });
    });
  }
}
