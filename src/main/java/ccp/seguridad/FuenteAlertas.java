package ccp.seguridad;

import ccp.platform.http.EventStream;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The security area's live feed for one console (GET /v1/alertas/flujo): each alert the Notificador stores from the
 * moment the stream opened, once ({@code alerta}, the alert as GET /v1/alertas lists it), and {@code revocaciones}
 * whenever the revoked and blocked actors or their reactions change.
 * <p>
 * A row's {@code recibido_en} is its transaction's start, so a row can commit after one stamped later was seen: each
 * ask looks {@link #SOLAPE} behind its cursor and skips the alerts it already wrote.
 */
final class FuenteAlertas implements EventStream.Source {

  /** Far beyond the Notificador's insert transaction (one statement). */
  static final Duration SOLAPE = Duration.ofSeconds(5);

  private final Avisos avisos;
  private final EventStream.Source revocaciones;
  private final Map<String, Instant> escritas = new HashMap<>();
  private Instant cursor;

  FuenteAlertas(Avisos avisos, Revocaciones revocaciones) {
    this.avisos = avisos;
    this.revocaciones = EventStream.changes("revocaciones", revocaciones::version);
  }

  @Override
  public Future<List<EventStream.Event>> next() {
    return EventStream.both(this::alertas, revocaciones).next();
  }

  private Future<List<EventStream.Event>> alertas() {
    if (cursor == null) return avisos.ahora().map(ahora -> {
      cursor = ahora;
      return List.of();
    });
    return avisos.recibidasTras(cursor.minus(SOLAPE)).map(recibidas -> {
      List<EventStream.Event> nuevas = new ArrayList<>();
      for (JsonObject alerta : recibidas) {
        Instant recibida = Instant.parse(alerta.getString("recibido_en"));
        if (escritas.putIfAbsent(alerta.getString("id_alerta"), recibida) == null) {
          nuevas.add(new EventStream.Event("alerta", alerta));
        }
        if (recibida.isAfter(cursor)) cursor = recibida;
      }
      Instant olvido = cursor.minus(SOLAPE);
      escritas.values().removeIf(recibida -> recibida.isBefore(olvido));
      return nuevas;
    });
  }
}
