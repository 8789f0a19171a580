package ccp.seguridad.ssf;

import ccp.platform.async.PeriodicTask;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The push side of the transmitter (RFC 8935): each stream's due SETs are pushed on that stream's own lane — at most
 * {@link #EN_VUELO} at a time, each bounded by the push timeout, with the stream's own back-off after a failure — so a
 * receiver that fails, is slow or never answers delays only its own SETs, never another stream's. A SET is claimed for
 * a lease, signed, POSTed to its stream's receiver as {@code application/secevent+jwt}, and its outcome recorded: 2xx
 * (RFC 8935: 202) delivered; a 3xx or a 4xx other than 408/429 refused for good (RFC 8935 §2.3's error kept); anything
 * else, an endpoint that now resolves inside the network, or no answer within the push's whole bound, retried with
 * back-off. It runs beside the Notificador in the active seguridad process; the lease and the conditional records keep a
 * SET from being sent twice at once (across a takeover) or after its 202, and from being sent at all once its stream is
 * deleted. A new alert wakes it at once; otherwise it looks every {@code ssf.barrido-ms}. The lanes are plain fields of
 * this verticle, touched only on its event loop.
 */
public final class RepartidorSet extends VerticleBase {

  /** Local event-bus address: SETs were just stored, look now. */
  public static final String DESPERTAR = "ccp.seguridad.ssf.despertar";

  private static final Logger LOG = LoggerFactory.getLogger(RepartidorSet.class);
  /** SETs of one stream pushed at once: its lane's batch. */
  static final int EN_VUELO = 4;
  private static final int MAX_CUERPO = 4_096;

  private enum Resultado { ENTREGADA, RECHAZADA, FALLIDA }

  /** One stream's lane: one batch at a time, and the stream's own back-off. */
  private static final class Carril {
    boolean ocupado;
    boolean otraVez;
    int fallos;
    long reanudarEn;
  }

  private final SqlClient sql;
  private final SsfConfig config;
  private final FirmaSet firma;
  private final MeterRegistry registry;
  private final Map<String, Carril> carriles = new HashMap<>();
  private Streams flujos;
  private MedidasSsf medidas;
  private DestinoPush destinos;
  private HttpClient client;
  private PeriodicTask barrido;
  private boolean enRonda;
  private boolean otraRonda;

  public RepartidorSet(SqlClient sql, SsfConfig config, FirmaSet firma, MeterRegistry registry) {
    this.sql = sql;
    this.config = config;
    this.firma = firma;
    this.registry = registry;
  }

  @Override
  public Future<?> start() {
    flujos = new Streams(sql);
    medidas = new MedidasSsf(registry);
    destinos = new DestinoPush(vertx, config.destinos());
    client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true));
    barrido = PeriodicTask.every(vertx, config.barridoMs(), "Pushing the SETs due", this::ronda);
    return vertx.eventBus().localConsumer(DESPERTAR, message -> ronda()).completion();
  }

  @Override
  public Future<?> stop() {
    barrido.cancel();
    destinos.close();
    return client.close();
  }

  /**
   * Starts the lane of every stream with a SET due that is neither pushing nor backing off; a lane that is pushing is
   * told to look again when done. One round at a time; a wake-up during a round makes another right after it.
   */
  private Future<?> ronda() {
    if (enRonda) {
      otraRonda = true;
      return Future.succeededFuture();
    }
    enRonda = true;
    otraRonda = false;
    return flujos.pendientes().onSuccess(pendientes -> {
      Set<String> conPendientes = pendientes.stream().map(Streams.Pendiente::flujo).collect(Collectors.toSet());
      carriles.entrySet().removeIf(e -> !e.getValue().ocupado && !conPendientes.contains(e.getKey()));
      long ahora = System.currentTimeMillis();
      for (Streams.Pendiente p : pendientes) {
        if (!p.vencida()) continue;
        Carril carril = carriles.computeIfAbsent(p.flujo(), id -> new Carril());
        if (carril.ocupado) carril.otraVez = true;
        else if (carril.reanudarEn <= ahora) correr(p.flujo(), carril);
      }
    }).onComplete(ar -> {
      enRonda = false;
      if (ar.failed()) LOG.warn("Looking for SETs to push failed: {}", ar.cause().toString());
      if (otraRonda) vertx.runOnContext(x -> ronda());
    });
  }

  /** One batch of the stream's due SETs; another at once while they come in full batches and all go through. */
  private void correr(String flujo, Carril carril) {
    carril.ocupado = true;
    carril.otraVez = false;
    flujos.reclamar(flujo, EN_VUELO, config.reclamoMs())
      .compose(reclamadas -> Future.join(reclamadas.stream().map(r -> empujar(r, carril)).toList())
        .map(todas -> new Lote(reclamadas.size(), todas.<Resultado>list().contains(Resultado.FALLIDA))))
      .onComplete(ar -> {
        carril.ocupado = false;
        boolean fallo = ar.failed() || ar.result().fallo();
        if (ar.failed()) LOG.warn("Pushing the SETs of stream {} failed: {}", flujo, ar.cause().toString());
        if (fallo) {
          // Not Retry.until: nothing here waits to try one call again. The wait is kept where the next round reads
          // it — the stream's resume time, each SET's in its row — so that a restarted process or another round
          // honours it, and a round meanwhile runs the stream's other due SETs.
          carril.fallos++;
          carril.reanudarEn = System.currentTimeMillis() + config.reintento().delayMs(carril.fallos);
        } else {
          carril.fallos = 0;
          if (ar.result().tamano() == EN_VUELO || carril.otraVez) vertx.runOnContext(x -> correr(flujo, carril));
        }
      });
  }

  private record Lote(int tamano, boolean fallo) {}

  /** Never fails: a failure of the push or of its record is the outcome {@code FALLIDA}. */
  private Future<Resultado> empujar(Streams.Reclamada r, Carril carril) {
    return enviar(r).transform(ar -> {
      if (ar.succeeded() && ar.result().status() / 100 == 2) {
        return flujos.entregada(r.flujo(), r.jti()).map(primera -> {
          if (primera) medidas.entregada(r.flujo(), r.creadaEn());
          return Resultado.ENTREGADA;
        });
      }
      if (ar.succeeded() && definitivo(ar.result().status())) {
        String error = ar.result().error();
        LOG.warn("Stream {} refused SET {} for good: {}", r.flujo(), r.jti(), error);
        medidas.rechazo(r.flujo());
        return flujos.rechazada(r.flujo(), r.jti(), error).map(Resultado.RECHAZADA);
      }
      String error = ar.succeeded() ? ar.result().error() : String.valueOf(ar.cause().getMessage());
      long espera = config.reintento().delayMs(Math.max(r.intentos(), carril.fallos + 1));
      if (ar.failed() && ar.cause() instanceof DestinoPush.Rechazado) {
        LOG.warn("Stream {}: SET {} not pushed, {}; again in {} ms", r.flujo(), r.jti(), error, espera);
      } else {
        LOG.debug("Push of SET {} to stream {} failed ({}); again in {} ms", r.jti(), r.flujo(), error, espera);
      }
      medidas.reintento(r.flujo());
      return flujos.reintentar(r.flujo(), r.jti(), espera, error).map(Resultado.FALLIDA);
    }).otherwise(err -> {
      LOG.warn("Recording the push of SET {} to stream {} failed: {}", r.jti(), r.flujo(), err.toString());
      return Resultado.FALLIDA;
    });
  }

  /** What the receiver answered: its status, and RFC 8935's error when it gave one. */
  private record Respuesta(int status, String error) {}

  /**
   * One POST, whole within {@code ssf.push-timeout-ms} from the name's resolution to the answer's last byte — a receiver
   * that never answers or trickles its answer is cut off there, its connection reset, well inside the claim's lease — to
   * the address {@link DestinoPush} just checked, no redirect followed, and at most {@link #MAX_CUERPO} bytes of the
   * answer read (RFC 8935's error is a few hundred bytes; chunked or not).
   */
  private Future<Respuesta> enviar(Streams.Reclamada r) {
    Promise<Respuesta> answer = Promise.promise();
    long deadline = vertx.setTimer(config.pushTimeoutMs(), t -> answer.tryFail("no answer within " + config.pushTimeoutMs() + " ms"));
    answer.future().onComplete(x -> vertx.cancelTimer(deadline));
    Future.succeededFuture(r.endpointUrl()).compose(destinos::conectarA).compose(direccion -> {
      RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(r.endpointUrl())
        .setFollowRedirects(false).setConnectTimeout(config.pushTimeoutMs()).setIdleTimeout(config.pushTimeoutMs())
        .putHeader("Content-Type", "application/secevent+jwt").putHeader("Accept", "application/json");
      direccion.ifPresent(options::setServer);
      if (r.authorizationHeader() != null) options.putHeader("Authorization", r.authorizationHeader());
      return client.request(options);
    }).compose(request -> {
      answer.future().onFailure(x -> request.reset());
      return request.send(Buffer.buffer(firma.firmar(r.claims()))).compose(response -> leer(response, request));
    }).onComplete(ar -> {
      if (ar.succeeded()) answer.tryComplete(ar.result());
      else answer.tryFail(ar.cause());
    });
    return answer.future();
  }

  /** The status, and the error of a body of at most {@link #MAX_CUERPO} bytes; a longer one is not read to its end. */
  private static Future<Respuesta> leer(HttpClientResponse response, HttpClientRequest request) {
    int status = response.statusCode();
    Respuesta sinCuerpo = new Respuesta(status, "receiver answered " + status);
    String length = response.getHeader("Content-Length");
    if (length != null && !(length.matches("\\d{1,4}") && Integer.parseInt(length) <= MAX_CUERPO)) {
      request.reset();
      return Future.succeededFuture(sinCuerpo);
    }
    Promise<Respuesta> leida = Promise.promise();
    Buffer cuerpo = Buffer.buffer();
    response.handler(trozo -> {
      if (cuerpo.length() + trozo.length() > MAX_CUERPO) {
        leida.tryComplete(sinCuerpo);
        request.reset();
      } else {
        cuerpo.appendBuffer(trozo);
      }
    });
    response.exceptionHandler(err -> leida.tryComplete(sinCuerpo));
    response.endHandler(v -> leida.tryComplete(new Respuesta(status, error(status, cuerpo))));
    return leida.future();
  }

  /**
   * A client error is the SET's or the stream's, and sending it again changes nothing; 408 and 429 are the receiver's
   * state. A redirect is not followed (it could lead anywhere): the receiver must fix its endpoint.
   */
  private static boolean definitivo(int status) {
    return status >= 300 && status < 500 && status != 408 && status != 429;
  }

  /** RFC 8935 §2.3's {@code err} and {@code description} when the receiver gave them; else the status. */
  private static String error(int status, Buffer body) {
    String texto = "receiver answered " + status;
    if (body.length() == 0) return texto;
    try {
      JsonObject json = new JsonObject(body);
      if (json.getValue("err") instanceof String) return texto + " " + Streams.error(json);
    } catch (DecodeException | ClassCastException ignored) {
      // not RFC 8935's error body: the status says enough
    }
    return texto;
  }
}
