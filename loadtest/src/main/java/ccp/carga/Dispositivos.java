package ccp.carga;

import ccp.carga.flota.Flota;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The load runs' set-up, shared by the {@code carga-*} drivers and the Gatling simulations: the security area
 * registers each vendedor's own device, so that only a run's deliberate strangers raise alerts. A request refused
 * with 503 is asked again after the {@code Retry-After} the system names (at most {@value #MAX_SECONDS} s), up to
 * {@value #ATTEMPTS} times in all; the retries are counted apart.
 */
public final class Dispositivos {

  static final int ATTEMPTS = 5;
  static final int MAX_SECONDS = 5;

  private final Vertx vertx;
  private final WebClient web;
  private final LongAdder retries = new LongAdder();

  public Dispositivos(Vertx vertx, WebClient web) {
    this.vertx = vertx;
    this.web = web;
  }

  /** {@code vendedor-1} … {@code vendedor-<vendedores>} get device {@code casa-vendedor-<n>}, {@code batch} at a time. */
  public Future<Void> registrar(URI base, String areaBearer, int vendedores, int batch) {
    Future<Void> chain = Future.succeededFuture();
    for (int from = 0; from < vendedores; from += batch) {
      int start = from;
      chain = chain.compose(x -> {
        List<Future<?>> puts = new ArrayList<>();
        for (int i = start; i < Math.min(vendedores, start + batch); i++) {
          String vendedor = Flota.vendedor(i);
          puts.add(conReintentos(() -> web.putAbs(base + "/v1/dispositivos/" + vendedor)
            .putHeader("Authorization", areaBearer)
            .sendJsonObject(new JsonObject().put("huella", Flota.casa(vendedor))), ATTEMPTS)
            .compose(r -> r.statusCode() == 200 ? Future.succeededFuture()
              : Future.failedFuture("registering the device of " + vendedor + " answered " + r.statusCode() + ": " + r.bodyAsString())));
        }
        return Future.all(puts).mapEmpty();
      });
    }
    return chain;
  }

  /** Requests refused with 503 and asked again, since this object was made. */
  public long retries() {
    return retries.sum();
  }

  private Future<HttpResponse<Buffer>> conReintentos(Supplier<Future<HttpResponse<Buffer>>> request, int left) {
    return request.get().compose(response -> {
      if (response.statusCode() != 503 || left <= 1) return Future.succeededFuture(response);
      retries.increment();
      Promise<HttpResponse<Buffer>> again = Promise.promise();
      vertx.setTimer(1_000L * retryAfterSeconds(response.getHeader("Retry-After")),
        t -> conReintentos(request, left - 1).onComplete(again));
      return again.future();
    });
  }

  /** The delay a 503 names, in whole seconds (RFC 9110 delay-seconds), bounded; 1 when absent or not a number. */
  public static int retryAfterSeconds(String header) {
    if (header == null || !header.trim().matches("[0-9]{1,6}")) return 1;
    return Math.max(1, Math.min(MAX_SECONDS, Integer.parseInt(header.trim())));
  }
}
