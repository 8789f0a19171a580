package ccp.seguridad.ssf;

import ccp.platform.async.PeriodicTask;
import ccp.platform.http.Actor;
import ccp.platform.http.ApiErrors;
import ccp.platform.http.JsonBody;
import ccp.platform.http.JsonResponse;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.sqlclient.SqlClient;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The transmitter's HTTP side (SSF 1.0 §7–8): its metadata and keys, open to anyone; the stream management API and
 * the poll endpoint (RFC 8936) under {@code /v1/ssf}, behind the App's token and revocation checks for the SEGURIDAD
 * profile, which the router mounting it applies to {@code /v1/*}. The security area administers every stream: a
 * receiver's own client is a SEGURIDAD actor of the directory (see docs/ssf.md).
 */
public final class ApiSsf {

  static final String CONFIGURACION = "/v1/ssf/stream";
  static final String ESTADO = "/v1/ssf/status";
  static final String VERIFICACION = "/v1/ssf/verify";
  static final String POLL = "/v1/ssf/poll/";
  /** Seconds between two verification requests of a stream; a faster one is answered 429 (SSF 1.0 §8.1.1). */
  static final int MIN_VERIFICATION_INTERVAL = 5;

  /** Streams in the whole system: each costs a stored SET per event and a signature per push or poll. */
  static final int MAX_FLUJOS = 100;
  /** How often each process reads again how many streams each client holds, for {@code /metrics}. */
  private static final long CUENTA_MS = 10_000;
  private static final Set<String> TRANSMISOR = Set.of("stream_id", "iss", "aud", "events_supported", "events_delivered",
    "min_verification_interval");

  private final Streams flujos;
  private final FirmaSet firma;
  private final String issuer;
  private final int porDueno;
  private final DestinoPush destinos;
  private final MedidasSsf medidas;
  private final Vertx vertx;
  private PeriodicTask cuenta;

  public ApiSsf(Vertx vertx, SqlClient sql, FirmaSet firma, SsfConfig config, MeterRegistry registry) {
    this.vertx = vertx;
    this.flujos = new Streams(sql);
    this.firma = firma;
    this.issuer = config.issuer();
    this.porDueno = config.flujosPorDueno();
    this.destinos = new DestinoPush(vertx, config.destinos());
    this.medidas = new MedidasSsf(registry);
  }

  /** Stops counting the streams per client and lets go of the name resolvers. */
  public void close() {
    if (cuenta != null) cuenta.cancel();
    destinos.close();
  }

  public void mount(Router router) {
    cuenta = PeriodicTask.every(vertx, CUENTA_MS, "Counting the streams per client", this::contar);
    cuenta.runNow();
    router.get("/.well-known/ssf-configuration").handler(this::metadatos);
    router.get("/ssf/jwks").handler(ctx -> sinCache(ctx).putHeader("Content-Type", "application/jwk-set+json").end(firma.jwks().encode()));
    router.post(CONFIGURACION).handler(this::crear);
    router.get(CONFIGURACION).handler(this::leer);
    router.patch(CONFIGURACION).handler(ctx -> actualizar(ctx, false));
    router.put(CONFIGURACION).handler(ctx -> actualizar(ctx, true));
    router.delete(CONFIGURACION).handler(this::borrar);
    router.get(ESTADO).handler(this::leerEstado);
    router.post(ESTADO).handler(this::cambiarEstado);
    router.post(VERIFICACION).handler(this::verificar);
    router.post(POLL + ":flujo").handler(this::sondear);
  }

  private void metadatos(RoutingContext ctx) {
    sinCache(ctx);
    JsonResponse.ok(ctx, new JsonObject()
      .put("spec_version", "1_0")
      .put("issuer", issuer)
      .put("jwks_uri", issuer + "/ssf/jwks")
      .put("delivery_methods_supported", new JsonArray().add(Stream.PUSH).add(Stream.POLL))
      .put("configuration_endpoint", issuer + CONFIGURACION)
      .put("status_endpoint", issuer + ESTADO)
      .put("verification_endpoint", issuer + VERIFICACION)
      .put("default_subjects", "ALL")
      .put("authorization_schemes", new JsonArray().add(new JsonObject().put("spec_urn", "urn:ietf:rfc:6749"))));
  }

  /**
   * {@code aud} is the transmitter's to give (SSF 1.0 §8.1.1): the push endpoint a receiver gave, or for a poll stream
   * its creator, the client every poll must authenticate as.
   */
  private void crear(RoutingContext ctx) {
    JsonObject body = JsonBody.of(ctx);
    PeticionSsf.Entrega entrega = PeticionSsf.entrega(body.getJsonObject("delivery"));
    List<String> solicitados = PeticionSsf.solicitados(body);
    String dueno = Actor.of(ctx).id();
    String aud = entrega.url() != null ? entrega.url() : "urn:ccp:ssf:receptor:" + dueno;
    destinos.comprobar(entrega.url())
      .compose(x -> flujos.crear(Streams.nuevoId(), aud, entrega.metodo(), entrega.url(), entrega.autorizacion(), solicitados,
        PeticionSsf.entregados(solicitados), body.getString("description"), dueno, porDueno, MAX_FLUJOS))
      .onSuccess(flujo -> {
        if (flujo.isEmpty()) {
          demasiados(ctx, dueno);
          return;
        }
        cuenta.runNow();
        sinCache(ctx);
        JsonResponse.send(ctx, 201, flujo.get().toJson(issuer, MIN_VERIFICATION_INTERVAL));
      })
      .onFailure(ctx::fail);
  }

  /** 409 naming the quota that refused: the client's own ({@code ssf.streams-per-owner}) or the system's. */
  private void demasiados(RoutingContext ctx, String dueno) {
    flujos.cupo(dueno).onSuccess(cupo -> {
      if (cupo.propios() >= porDueno) {
        ApiErrors.send(ctx, 409, "too_many_streams", "client " + dueno + " holds " + cupo.propios() + " streams, its quota of "
          + porDueno + " (ssf.streams-per-owner): delete one first");
      } else {
        ApiErrors.send(ctx, 409, "too_many_streams", "the system holds its " + MAX_FLUJOS + " streams: delete one first");
      }
    }).onFailure(ctx::fail);
  }

  private Future<?> contar() {
    return flujos.porDueno().onSuccess(medidas::flujosPorDueno);
  }

  private void leer(RoutingContext ctx) {
    String id = ctx.queryParams().get("stream_id");
    if (id == null) {
      flujos.listar(Actor.of(ctx).id()).onSuccess(list -> {
        JsonArray array = new JsonArray();
        list.forEach(f -> array.add(f.toJson(issuer, MIN_VERIFICATION_INTERVAL)));
        sinCache(ctx).putHeader("Content-Type", "application/json").end(array.encode());
      }).onFailure(ctx::fail);
      return;
    }
    conFlujo(ctx, id, flujos.leer(id, Actor.of(ctx).id()), flujo -> JsonResponse.ok(ctx, flujo.toJson(issuer, MIN_VERIFICATION_INTERVAL)));
  }

  /** PATCH merges the receiver-supplied members present; PUT ({@code reemplazar}) replaces them all. */
  private void actualizar(RoutingContext ctx, boolean reemplazar) {
    JsonObject body = JsonBody.of(ctx);
    String id = body.getString("stream_id");
    String dueno = Actor.of(ctx).id();
    flujos.leer(id, dueno).compose(actual -> {
      if (actual.isEmpty()) return Future.succeededFuture(Optional.<Stream>empty());
      comprobarTransmisor(body, actual.get());
      boolean conEntrega = reemplazar || body.containsKey("delivery");
      PeticionSsf.Entrega entrega = conEntrega ? PeticionSsf.entrega(body.getJsonObject("delivery")) : null;
      if (entrega != null && !actual.get().metodo().equals(entrega.metodo())
          || entrega != null && entrega.url() != null && !entrega.url().equals(actual.get().endpointUrl())) {
        throw new JsonBody.BadRequest("delivery", "the delivery method and endpoint_url name the receiver (its aud): create another stream");
      }
      List<String> solicitados = reemplazar || body.containsKey("events_requested") ? PeticionSsf.solicitados(body) : null;
      boolean conDescripcion = reemplazar || body.containsKey("description");
      return flujos.actualizar(id, dueno, entrega == null ? null : entrega.metodo(), entrega == null ? null : entrega.url(),
        entrega == null ? null : entrega.autorizacion(), solicitados, solicitados == null ? null : PeticionSsf.entregados(solicitados),
        conDescripcion ? body.getString("description") : null, conDescripcion);
    }).onComplete(ar -> {
      if (ar.failed()) ctx.fail(ar.cause());
      else if (ar.result().isEmpty()) noStream(ctx, id);
      else JsonResponse.ok(ctx, ar.result().get().toJson(issuer, MIN_VERIFICATION_INTERVAL));
    });
  }

  private void borrar(RoutingContext ctx) {
    String id = ctx.queryParams().get("stream_id");
    flujos.borrar(id, Actor.of(ctx).id()).onSuccess(borrado -> {
      if (borrado) {
        cuenta.runNow();
        sinCache(ctx).setStatusCode(204).end();
      } else {
        noStream(ctx, id);
      }
    }).onFailure(ctx::fail);
  }

  private void leerEstado(RoutingContext ctx) {
    String id = ctx.queryParams().get("stream_id");
    conFlujo(ctx, id, flujos.leer(id, Actor.of(ctx).id()), flujo -> JsonResponse.ok(ctx, flujo.estadoJson()));
  }

  private void cambiarEstado(RoutingContext ctx) {
    JsonObject body = JsonBody.of(ctx);
    String id = body.getString("stream_id");
    conFlujo(ctx, id, flujos.cambiarEstado(id, Actor.of(ctx).id(), body.getString("status"), body.getString("reason")), flujo -> JsonResponse.ok(ctx, flujo.estadoJson()));
  }

  private void verificar(RoutingContext ctx) {
    JsonObject body = JsonBody.of(ctx);
    String id = body.getString("stream_id");
    String state = body.getString("state");
    String dueno = Actor.of(ctx).id();
    flujos.leer(id, dueno).onSuccess(actual -> {
      if (actual.isEmpty()) {
        noStream(ctx, id);
        return;
      }
      if ("disabled".equals(actual.get().estado())) {
        ApiErrors.send(ctx, 409, "stream_disabled", "stream " + id + " is disabled: enable it first");
        return;
      }
      JsonObject evento = new JsonObject();
      if (state != null) evento.put("state", state);
      String jti = UUID.randomUUID().toString();
      String claims = new EventoSsf(jti, TiposEvento.VERIFICACION, null, id, evento)
        .claims(issuer, actual.get().aud(), System.currentTimeMillis() / 1000).encode();
      flujos.verificar(id, dueno, MIN_VERIFICATION_INTERVAL, jti, claims).onSuccess(encolada -> {
        if (encolada) {
          ctx.vertx().eventBus().send(RepartidorSet.DESPERTAR, null);
          sinCache(ctx).setStatusCode(204).end();
        } else {
          ctx.response().putHeader("Retry-After", String.valueOf(MIN_VERIFICATION_INTERVAL));
          ApiErrors.send(ctx, 429, "too_many_requests", "at most one verification every " + MIN_VERIFICATION_INTERVAL + " s per stream");
        }
      }).onFailure(ctx::fail);
    }).onFailure(ctx::fail);
  }

  /** RFC 8936 §2.4: acknowledge, report errors, and take what waits; answered at once, never held open. */
  private void sondear(RoutingContext ctx) {
    String id = ctx.pathParam("flujo");
    JsonObject body = JsonBody.of(ctx);
    int max = body.getInteger("maxEvents", 100);
    List<String> acks = PeticionSsf.jtis(body.getJsonArray("ack"));
    Map<String, String> errores = PeticionSsf.errores(body.getJsonObject("setErrs"));
    if (acks.stream().anyMatch(errores::containsKey)) {
      throw new JsonBody.BadRequest("ack", "a jti cannot be both acknowledged and reported in setErrs");
    }
    flujos.leer(id, Actor.of(ctx).id()).compose(actual -> {
      if (actual.isEmpty()) return Future.succeededFuture((JsonObject) null);
      if (!Stream.POLL.equals(actual.get().metodo())) {
        throw new JsonBody.BadRequest("stream_id", "stream " + id + " is delivered by push, not polled");
      }
      return flujos.sondear(id, acks, errores, max).compose(sondeo -> firmar(sondeo.claims()).map(sets -> {
        sondeo.reconocidas().forEach(creada -> medidas.entregada(id, creada));
        return new JsonObject().put("sets", sets).put("moreAvailable", sondeo.hayMas());
      }));
    }).onSuccess(respuesta -> {
      if (respuesta == null) {
        noStream(ctx, id);
        return;
      }
      sinCache(ctx);
      JsonResponse.ok(ctx, respuesta);
    }).onFailure(ctx::fail);
  }

  /** The SETs of a poll, signed now: up to a thousand RS256 signatures, off the event loop. */
  private Future<JsonObject> firmar(Map<String, String> claims) {
    if (claims.isEmpty()) return Future.succeededFuture(new JsonObject());
    return vertx.executeBlocking(() -> {
      JsonObject sets = new JsonObject();
      claims.forEach((jti, c) -> sets.put(jti, firma.firmar(c)));
      return sets;
    }, false);
  }

  private void comprobarTransmisor(JsonObject body, Stream actual) {
    JsonObject esperado = actual.toJson(issuer, MIN_VERIFICATION_INTERVAL);
    for (String member : TRANSMISOR) {
      if (body.containsKey(member) && !esperado.getValue(member).equals(body.getValue(member))) {
        throw new JsonBody.BadRequest(member, "is the transmitter's and must be " + esperado.getValue(member));
      }
    }
  }

  private static void conFlujo(RoutingContext ctx, String id, Future<Optional<Stream>> lectura, Consumer<Stream> then) {
    lectura.onSuccess(flujo -> {
      if (flujo.isEmpty()) noStream(ctx, id);
      else then.accept(flujo.get());
    }).onFailure(ctx::fail);
  }

  private static void noStream(RoutingContext ctx, String id) {
    ApiErrors.send(ctx, 404, "stream_not_found", "no stream " + id);
  }

  private static HttpServerResponse sinCache(RoutingContext ctx) {
    return ctx.response().putHeader("Cache-Control", "no-store");
  }
}
