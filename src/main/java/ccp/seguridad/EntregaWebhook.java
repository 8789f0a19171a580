package ccp.seguridad;

import ccp.platform.async.Backoff;
import ccp.platform.kafka.PoisonMessageException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * POSTs an alert to the security area's webhook, retrying with capped exponential back-off. A 4xx answer other than
 * 408/429 is final: the alert is poison for this webhook. The {@code Idempotency-Key} header carries
 * {@code id_alerta}, so a receiver can drop the one repeat that a crash between its 2xx and our record allows.
 */
final class EntregaWebhook {

  private static final Logger LOG = LoggerFactory.getLogger(EntregaWebhook.class);

  private final Vertx vertx;
  private final WebClient client;
  private final String url;
  private final long timeoutMs;
  private final Backoff reintento;

  EntregaWebhook(Vertx vertx, SeguridadConfig.Webhook webhook) {
    this.vertx = vertx;
    this.client = WebClient.create(vertx);
    this.url = webhook.url();
    this.timeoutMs = webhook.timeoutMs();
    this.reintento = webhook.reintento();
  }

  /**
   * Completes when the webhook acknowledged with 2xx; fails with {@link PoisonMessageException} when it refused
   * for good, or with the last error once {@code stopped} says to give up (the record is then redelivered).
   */
  Future<Void> entregar(UUID idAlerta, JsonObject alerta, Function<String, Future<Void>> onFailure, BooleanSupplier stopped) {
    return intentar(idAlerta, alerta, onFailure, stopped, 1);
  }

  private Future<Void> intentar(UUID idAlerta, JsonObject alerta, Function<String, Future<Void>> onFailure, BooleanSupplier stopped, int attempt) {
    return post(idAlerta, alerta).recover(err -> {
      if (err instanceof PoisonMessageException) return onFailure.apply(err.getMessage()).compose(x -> Future.failedFuture(err));
      if (stopped.getAsBoolean()) return Future.failedFuture(err);
      long delay = reintento.delayMs(attempt);
      LOG.warn("Webhook delivery of alert {} failed ({}); retrying in {} ms", idAlerta, err.getMessage(), delay);
      return onFailure.apply(err.getMessage())
        .recover(ignored -> Future.succeededFuture())
        .compose(x -> vertx.timer(delay))
        .compose(x -> intentar(idAlerta, alerta, onFailure, stopped, attempt + 1));
    });
  }

  private Future<Void> post(UUID idAlerta, JsonObject alerta) {
    return client.postAbs(url)
      .timeout(timeoutMs)
      .putHeader("Idempotency-Key", idAlerta.toString())
      .sendJsonObject(alerta)
      .compose(this::check);
  }

  private Future<Void> check(HttpResponse<Buffer> response) {
    int status = response.statusCode();
    if (status >= 200 && status < 300) return Future.succeededFuture();
    String error = "webhook answered " + status;
    if (status >= 400 && status < 500 && status != 408 && status != 429) {
      return Future.failedFuture(new PoisonMessageException(error + ": the alert is refused for good"));
    }
    return Future.failedFuture(error);
  }

  void close() {
    client.close();
  }
}
