package ccp.seguridad;

import ccp.platform.http.ApiErrors;
import ccp.platform.http.Jose;
import ccp.platform.http.KeySetRereads;
import ccp.seguridad.ssf.ClavesEmisor;
import ccp.seguridad.ssf.RechazoSet;
import ccp.seguridad.ssf.SsfConfig;
import ccp.seguridad.ssf.TiposEvento;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The Shared Signals receiver (RFC 8935 push, {@code POST /ssf/recepcion}): a SET from the configured identity
 * provider saying an actor's session was revoked, its credential changed or its account disabled puts the actor in
 * the Lista de revocación — so every gateway refuses its next request — and raises an alert. The 202 answers only once
 * both are done. A SET received again (the same {@code jti} from the provider: a transmitter that lost our 202) is
 * answered 202 as the first time (RFC 8935 §2) and changes nothing more. A SET that is not the provider's, not for us,
 * outside its time bounds ({@code iat}, {@code nbf}, {@code exp}, give or take {@code ssf.receptor.clock-skew-s}) or of
 * an event this receiver does not act on gets RFC 8935's error and changes nothing.
 */
final class ReceptorSenales {

  static final String RUTA = "/ssf/recepcion";

  private static final Logger LOG = LoggerFactory.getLogger(ReceptorSenales.class);
  private static final Pattern JTI = Pattern.compile("[\\x21-\\x7e]{1,256}");
  private static final Pattern ACTOR = Pattern.compile("[A-Za-z0-9_.@-]{1,128}");
  /** Far beyond any real date (year 5138), far within a long: a date past it is not a date. */
  private static final double MAX_FECHA = 1e11;
  /** What a transmitter may send whatever the stream asked: answered 202, nothing to act on. */
  private static final Set<String> INFORMATIVOS = Set.of(TiposEvento.VERIFICACION,
    "https://schemas.openid.net/secevent/ssf/event-type/stream-updated");

  private final SsfConfig.Receptor proveedor;
  private final ClavesEmisor claves;
  private final RegistroReacciones registro;
  private final PublicadorAlertas alertas;
  private final int revocacionHoras;
  private final Timer recepcion;

  ReceptorSenales(SsfConfig.Receptor proveedor, ClavesEmisor claves, RegistroReacciones registro, PublicadorAlertas alertas,
                  int revocacionHoras, Timer recepcion) {
    this.proveedor = proveedor;
    this.claves = claves;
    this.registro = registro;
    this.alertas = alertas;
    this.revocacionHoras = revocacionHoras;
    this.recepcion = recepcion;
  }

  void recibir(RoutingContext ctx) {
    long llegada = System.nanoTime();
    Instant recibidoEn = Instant.now();
    String contentType = ctx.request().getHeader("Content-Type");
    if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("application/secevent+jwt")) {
      rechazar(ctx, new RechazoSet("invalid_request", "Content-Type must be application/secevent+jwt"));
      return;
    }
    String token = ctx.body().asString() == null ? "" : ctx.body().asString().trim();
    Future.succeededFuture(token).map(this::cabecera).compose(claves::verificar).compose(claims -> {
      Senal senal = senal(claims);
      if (senal == null) return Future.succeededFuture();
      return registro.revocarPorSenal(senal.iss(), senal.jti(), senal.tipo(), senal.actor(), revocacionHoras,
        "señal " + senal.tipo() + " de " + senal.iss() + " (jti " + senal.jti() + ")").compose(recibida -> {
          if (!recibida.nueva() && recibida.alertaPublicada()) {
            LOG.info("SET {} from {} received again: answered as the first time, nothing done again", senal.jti(), senal.iss());
            return Future.succeededFuture();
          }
          return alertas.senalRecibida(senal.iss(), senal.jti(), senal.tipo(), senal.actor(), recibidoEn)
            .compose(x -> registro.alertaPublicada(senal.iss(), senal.jti()))
            .onSuccess(x -> LOG.info("Actor {} revoked on a {} SET from {} (jti {})", senal.actor(), senal.tipo(), senal.iss(), senal.jti()));
        });
    }).onSuccess(x -> {
      recepcion.record(System.nanoTime() - llegada, TimeUnit.NANOSECONDS);
      ctx.response().setStatusCode(202).end();
    }).onFailure(err -> {
      if (err instanceof RechazoSet rechazo) {
        rechazar(ctx, rechazo);
      } else {
        // Not the SET's fault (the provider's keys, the database or the broker did not answer): the transmitter retries.
        LOG.warn("SET not processed, answered 503: {}", err.toString());
        ctx.response().putHeader("Retry-After",
          err instanceof KeySetRereads.Deferred deferred ? String.valueOf(deferred.retryAfterSeconds()) : "1");
        ApiErrors.send(ctx, 503, "unavailable", "the SET could not be processed now; retry");
      }
    });
  }

  /** The header and issuer, checked before the signature: the type keeps another kind of JWT out (SSF 1.0 §4.1.1). */
  private String cabecera(String token) {
    Jose.Parts parsed;
    try {
      parsed = Jose.parts(token);
    } catch (Jose.Malformed e) {
      throw new RechazoSet("invalid_request", "the body is not a JWT");
    }
    String typ = parsed.header().getString("typ", "");
    if (!typ.equalsIgnoreCase("secevent+jwt") && !typ.equalsIgnoreCase("application/secevent+jwt")) {
      throw new RechazoSet("invalid_request", "the JWT is not a SET (typ must be secevent+jwt)");
    }
    Object iss = parsed.payload().getValue("iss");
    if (!proveedor.issuer().equals(iss)) throw new RechazoSet("invalid_issuer", "iss " + iss + " is not the configured provider");
    return token;
  }

  private record Senal(String iss, String jti, String tipo, String actor) {}

  /** The verified SET's meaning; null for an informative event (verification, stream updated). */
  private Senal senal(JsonObject claims) {
    Object aud = claims.getValue("aud");
    boolean paraNosotros = aud instanceof String a ? a.equals(proveedor.audience())
      : aud instanceof JsonArray list && list.contains(proveedor.audience());
    if (!paraNosotros) throw new RechazoSet("invalid_audience", "aud " + aud + " does not name this receiver");
    vigente(claims);
    if (!(claims.getValue("jti") instanceof String jti) || !JTI.matcher(jti).matches()) {
      throw new RechazoSet("invalid_request", "jti is required");
    }
    if (!(claims.getValue("events") instanceof JsonObject events) || events.size() != 1) {
      throw new RechazoSet("invalid_request", "events must hold exactly one event");
    }
    String tipo = events.fieldNames().iterator().next();
    if (INFORMATIVOS.contains(tipo)) return null;
    if (!TiposEvento.REVOCAN.contains(tipo)) throw new RechazoSet("invalid_request", "event type " + tipo + " is not one this receiver acts on");
    Object evento = events.getValue(tipo);
    if (!(evento instanceof JsonObject detalle)) throw new RechazoSet("invalid_request", "the event must be an object");
    Object sujeto = claims.containsKey("sub_id") ? claims.getValue("sub_id") : detalle.getValue("subject");
    return new Senal(proveedor.issuer(), jti, tipo, actor(sujeto));
  }

  /**
   * The SET's time claims (RFC 7519 §4.1.4–6, NumericDate seconds): {@code iat} required and not in the future,
   * {@code nbf} passed and {@code exp} not, each give or take the allowed clock skew. A SET outside them is not one the
   * provider sends now (a replay of an old one, a forged date): RFC 8935's {@code invalid_request}, naming the claim.
   */
  private void vigente(JsonObject claims) {
    long ahora = System.currentTimeMillis() / 1000;
    long holgura = proveedor.holguraS();
    Long iat = fecha(claims, "iat");
    if (iat == null) throw new RechazoSet("invalid_request", "iat is required (the SET's issue time)");
    if (iat > ahora + holgura) {
      throw new RechazoSet("invalid_request", "iat " + iat + " is in the future (now " + ahora + ", clock skew allowed " + holgura + " s)");
    }
    Long nbf = fecha(claims, "nbf");
    if (nbf != null && nbf > ahora + holgura) {
      throw new RechazoSet("invalid_request", "nbf " + nbf + ": the SET is not valid yet (now " + ahora + ", clock skew allowed " + holgura + " s)");
    }
    Long exp = fecha(claims, "exp");
    if (exp != null && exp <= ahora - holgura) {
      throw new RechazoSet("invalid_request", "exp " + exp + ": the SET has expired (now " + ahora + ", clock skew allowed " + holgura + " s)");
    }
  }

  /** A NumericDate claim as whole seconds; null when absent; refused when not a number of a sane size. */
  private static Long fecha(JsonObject claims, String claim) {
    if (!claims.containsKey(claim)) return null;
    if (!(claims.getValue(claim) instanceof Number n) || !Double.isFinite(n.doubleValue()) || Math.abs(n.doubleValue()) > MAX_FECHA) {
      throw new RechazoSet("invalid_request", claim + " must be a NumericDate (seconds since the epoch)");
    }
    return (long) Math.floor(n.doubleValue());
  }

  /** The actor a subject identifier (RFC 9493) names: opaque, the provider's iss_sub, or a complex subject's user. */
  private String actor(Object sujeto) {
    if (sujeto instanceof JsonObject id) {
      String actor = switch (id.getString("format", "")) {
        case "opaque" -> id.getString("id");
        case "iss_sub" -> proveedor.issuer().equals(id.getString("iss")) ? id.getString("sub") : null;
        case "complex" -> id.getValue("user") instanceof JsonObject user ? actor(user) : null;
        default -> null;
      };
      if (actor != null && ACTOR.matcher(actor).matches()) return actor;
    }
    throw new RechazoSet("invalid_request", "sub_id must name an actor: format opaque, iss_sub of the provider, or complex with a user");
  }

  private static void rechazar(RoutingContext ctx, RechazoSet rechazo) {
    LOG.warn("SET refused ({}): {}", rechazo.err(), rechazo.getMessage());
    ctx.response().setStatusCode(400).putHeader("Content-Type", "application/json")
      .end(new JsonObject().put("err", rechazo.err()).put("description", rechazo.getMessage()).encode());
  }
}
