package ccp.seguridad.ssf;

import ccp.platform.async.PeriodicTask;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.sqlclient.SqlClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The push side of the transmitter (RFC 8935): takes the stored SETs that are due, claims each for a lease, POSTs it
 * to its stream's receiver as {@code application/secevent+jwt}, and records the outcome — 202 delivered; a 4xx other
 * than 408/429 refused for good (RFC 8935 §2.4's error kept); anything else, or no answer, retried with back-off.
 * It runs beside the Notificador in the active seguridad process; the lease and the conditional records keep a SET
 * from being sent twice at once (across a takeover) or after its 202. A new alert wakes it at once; otherwise it looks
 * every {@code ssf.barrido-ms}.
 */
public final class RepartidorSet extends VerticleBase {

  /** Local event-bus address: SETs were just stored, look now. */
  public static final String DESPERTAR = "ccp.seguridad.ssf.despertar";

  private static final Logger LOG = LoggerFactory.getLogger(RepartidorSet.class);
  private static final int LOTE = 100;

  private final SqlClient sql;
  private final SsfConfig config;
  private final MeterRegistry registry;
  private Flujos flujos;
  private MedidasSsf medidas;
  private WebClient client;
  private PeriodicTask barrido;
  private boolean enRonda;
  private boolean otraRonda;

  public RepartidorSet(SqlClient sql, SsfConfig config, MeterRegistry registry) {
    this.sql = sql;
    this.config = config;
    this.registry = registry;
  }

  @Override
  public Future<?> start() {
    flujos = new Flujos(sql);
    medidas = new MedidasSsf(registry);
    client = WebClient.create(vertx);
    barrido = PeriodicTask.every(vertx, config.barridoMs(), "Pushing the SETs due", this::ronda);
    return vertx.eventBus().localConsumer(DESPERTAR, message -> ronda()).completion();
  }

  @Override
  public Future<?> stop() {
    barrido.cancel();
    client.close();
    return Future.succeededFuture();
  }

  /** One round at a time; a wake-up during a round makes another right after it, as does a full batch. */
  private Future<?> ronda() {
    if (enRonda) {
      otraRonda = true;
      return Future.succeededFuture();
    }
    enRonda = true;
    otraRonda = false;
    return flujos.reclamar(LOTE, config.reclamoMs())
      .compose(reclamadas -> Future.join(reclamadas.stream().map(this::empujar).toList()).map(x -> reclamadas.size()))
      .onComplete(ar -> {
        enRonda = false;
        if (ar.failed()) LOG.warn("Pushing SETs failed: {}", ar.cause().toString());
        if (otraRonda || (ar.succeeded() && ar.result() == LOTE)) vertx.runOnContext(x -> ronda());
      });
  }

  private Future<Void> empujar(Flujos.Reclamada r) {
    HttpRequest<Buffer> request = client.postAbs(r.endpointUrl())
      .timeout(config.pushTimeoutMs())
      .putHeader("Content-Type", "application/secevent+jwt")
      .putHeader("Accept", "application/json");
    if (r.authorizationHeader() != null) request.putHeader("Authorization", r.authorizationHeader());
    return request.sendBuffer(Buffer.buffer(r.set())).transform(ar -> {
      if (ar.succeeded() && ar.result().statusCode() / 100 == 2) {
        return flujos.entregada(r.flujo(), r.jti()).onSuccess(primera -> {
          if (primera) medidas.entregada(r.flujo(), r.creadaEn());
        }).mapEmpty();
      }
      if (ar.succeeded() && definitivo(ar.result().statusCode())) {
        String error = error(ar.result());
        LOG.warn("Stream {} refused SET {} for good: {}", r.flujo(), r.jti(), error);
        medidas.rechazo(r.flujo());
        return flujos.rechazada(r.flujo(), r.jti(), error);
      }
      String error = ar.succeeded() ? error(ar.result()) : String.valueOf(ar.cause().getMessage());
      long espera = config.reintento().delayMs(r.intentos());
      LOG.debug("Push of SET {} to stream {} failed ({}); again in {} ms", r.jti(), r.flujo(), error, espera);
      medidas.reintento(r.flujo());
      return flujos.reintentar(r.flujo(), r.jti(), espera, error);
    });
  }

  /** A client error is the SET's or the stream's, and sending it again changes nothing; 408 and 429 are the receiver's state. */
  private static boolean definitivo(int status) {
    return status >= 400 && status < 500 && status != 408 && status != 429;
  }

  /** RFC 8935 §2.4's {@code err} and {@code description} when the receiver gave them; else the status. */
  private static String error(HttpResponse<Buffer> response) {
    String texto = "receiver answered " + response.statusCode();
    Buffer body = response.body();
    if (body == null || body.length() == 0 || body.length() > 4096) return texto;
    try {
      JsonObject json = new JsonObject(body);
      if (json.getValue("err") instanceof String err) return texto + " " + Flujos.error(json);
    } catch (DecodeException | ClassCastException ignored) {
      // not RFC 8935's error body: the status says enough
    }
    return texto;
  }
}
