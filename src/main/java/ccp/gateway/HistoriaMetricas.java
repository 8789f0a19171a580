package ccp.gateway;

import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The ASR board's last minutes ({@code GET /v1/metricas/historia}): one {@link Metricas#muestra} every
 * {@link #CADA_MS}, the last {@link #VENTANA} of them, so a board opened now draws the minutes before it. One per gateway
 * process: this verticle is its only writer, and the gateway's verticles read the list it publishes (a new immutable
 * list each time: no lock, no copy on read).
 */
final class HistoriaMetricas extends VerticleBase {

  static final long CADA_MS = 2_000;
  /** Five minutes. */
  static final int VENTANA = 150;

  private final MeterRegistry registry;
  private final AtomicReference<List<JsonObject>> muestras = new AtomicReference<>(List.of());
  private long timer;

  HistoriaMetricas(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public Future<?> start() {
    timer = vertx.setPeriodic(CADA_MS, t -> {
      List<JsonObject> anteriores = muestras.get();
      List<JsonObject> nuevas = new ArrayList<>(anteriores.subList(Math.max(0, anteriores.size() - VENTANA + 1), anteriores.size()));
      nuevas.add(Metricas.muestra(registry));
      muestras.set(List.copyOf(nuevas));
    });
    return Future.succeededFuture();
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(timer);
    return Future.succeededFuture();
  }

  /** The samples, oldest first; none is changed once published. */
  JsonObject historia() {
    return new JsonObject().put("cada_ms", CADA_MS).put("muestras", new JsonArray(new ArrayList<>(muestras.get())));
  }
}
