package ccp.platform.http;

import ccp.platform.config.ConfigException;
import ccp.platform.config.Settings;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.NoSuchKeyIdException;
import io.vertx.ext.auth.User;
import io.vertx.ext.auth.authentication.TokenCredentials;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.client.WebClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Bearer tokens (JWT) of the App, signed by the identity provider with a key of its JWK Set ({@code jwt.jwks-url}): the
 * subject is the actor, the {@code perfil} claim the profile the issuer stated. A token must name the issuer and the
 * audience, carry {@code exp} and {@code iat}, and live at most {@code jwt.max-ttl-minutes}; every claim is type-checked
 * before anything reads it ({@link Claims}), and the answer to a bad token names what is wrong. The JWK Set is read at
 * start (no usable key: no start) and again at once when a token names a key id it does not hold (the issuer rotated its
 * keys), within the bound of {@link KeySetRereads}: a token that meets the bound is answered 503 with
 * {@code Retry-After}, not 401.
 */
public final class Tokens {

  private static final Logger LOG = LoggerFactory.getLogger(Tokens.class);
  private static final int VERIFIED_CACHE_SIZE = 4096;
  private static final int LEEWAY_SECONDS = 5;
  private static final java.util.regex.Pattern SUBJECT = java.util.regex.Pattern.compile("[A-Za-z0-9_.@-]{1,128}");

  /**
   * The warm-up's actor (migration {@code gestor/V6}): read-only, it only opens sessions, and only with a token of a
   * {@link WarmUpKey}.
   */
  public static final String WARM_UP_ACTOR = "ccp-warm-up";
  private static final String WARM_UP_PERFIL = "CONSULTA";
  /** Set on a request whose token the open warm-up key signed ({@link #ofWarmUp}). */
  private static final String WARM_UP_REQUEST = "ccp.warm-up";

  /** The profiles of the App's actors (gestor.actores.perfil). */
  public static final Set<String> PERFILES = Set.of("VENDEDOR", "CONSULTA", "SEGURIDAD", "OPERADOR", "BODEGA");

  private final Vertx vertx;
  private final JwtConfig config;
  private final WebClient client;
  private final long timeoutMs;
  private volatile JWTAuth auth;
  private volatile WarmUpKey warmUp;
  /** The context that decides the JWK Set's re-reads; {@link #rereads} is its own. */
  private final Context home;
  private final KeySetRereads rereads = new KeySetRereads();

  private Tokens(Vertx vertx, JwtConfig config, WebClient client, long timeoutMs) {
    this.vertx = vertx;
    this.home = vertx.getOrCreateContext();
    this.config = config;
    this.client = client;
    this.timeoutMs = timeoutMs;
  }

  /** Reads the JWK Set, waiting at most {@code timeoutMs}; fails when it cannot be read or holds no usable key. */
  public static Future<Tokens> fetch(Vertx vertx, JwtConfig config, long timeoutMs) {
    if (config.jwksUrl().isBlank()) {
      return Future.failedFuture(new ConfigException(Settings.envName("jwt.jwks-url") + " is not set: the roles that serve "
        + "the App verify its tokens with the issuer's JWK Set (e.g. Keycloak's .../protocol/openid-connect/certs)"));
    }
    Tokens tokens = new Tokens(vertx, config, WebClient.create(vertx), timeoutMs);
    return tokens.load().map(tokens);
  }

  private Future<Void> load() {
    return client.getAbs(config.jwksUrl()).timeout(timeoutMs).send()
      .recover(err -> Future.failedFuture(new ConfigException("cannot read the JWK Set at " + config.jwksUrl() + ": " + err.getMessage())))
      .compose(response -> {
        if (response.statusCode() != 200) {
          return Future.failedFuture(new ConfigException("the JWK Set at " + config.jwksUrl() + " answered " + response.statusCode()));
        }
        try {
          List<JsonObject> keys = Jwks.signingKeys(Jwks.parse(response.bodyAsString(), "the JWK Set at " + config.jwksUrl()),
            "the JWK Set at " + config.jwksUrl());
          auth = JWTAuth.create(vertx, new JWTAuthOptions().setJwks(keys).setJWTOptions(new JWTOptions()
            .setIssuer(config.issuer()).addAudience(config.audience()).setLeeway(LEEWAY_SECONDS)));
          LOG.info("App tokens: {} key(s) from {}", keys.size(), config.jwksUrl());
          return Future.succeededFuture();
        } catch (ConfigException | DecodeException e) {
          return Future.failedFuture(e);
        }
      });
  }

  /**
   * The JWK Set again, within the bound of {@link KeySetRereads}. Every verticle of the process shares this verifier, so
   * the read is decided on one context, the verifier's own ({@code home}), and its outcome handed back on the caller's:
   * no lock, and the caller's handlers stay on its thread.
   */
  private Future<Void> refresh() {
    Context caller = vertx.getOrCreateContext();
    Promise<Void> outcome = Promise.promise();
    home.runOnContext(ignored -> rereads.reread(() -> load().onFailure(err -> LOG.warn("JWK Set refresh failed: {}", err.getMessage())))
      .onComplete(ar -> caller.runOnContext(again -> outcome.handle(ar))));
    return outcome.future();
  }

  /**
   * A route handler that answers 401 unless the request carries a valid token, and attaches its {@link Actor}.
   * Each call makes a handler with its own cache of verified tokens, confined to the verticle that routes with it:
   * a token's signature and claims are checked once, its expiry on every use. (Revocation and the actor's profile are
   * not properties of the token: the Lista de revocación and the Gestor's directory are read on every request.) The
   * same check is kept with the request ({@link Vigencia}), so an event stream ends when its token expires.
   */
  public Handler<RoutingContext> required() {
    Map<String, Verified> verified = Verificados.hasta(VERIFIED_CACHE_SIZE);
    return ctx -> {
      String authorization = ctx.request().getHeader("Authorization");
      Vigencia.Revision revision = () -> vigente(verified, authorization) != null ? Future.succeededFuture()
        : verify(authorization).map(again -> {
          verified.put(authorization, again);
          return (Vigencia.Rechazo) null;
        }).otherwise(err -> err instanceof KeySetRereads.Deferred
          ? new Vigencia.Rechazo(503, "unavailable", err.getMessage())
          : new Vigencia.Rechazo(401, "unauthorized", err.getMessage()));
      Verified known = vigente(verified, authorization);
      if (known != null) {
        admit(ctx, known, revision);
        return;
      }
      verify(authorization).onComplete(ar -> {
        if (ar.succeeded()) {
          verified.put(authorization, ar.result());
          admit(ctx, ar.result(), revision);
        } else if (ar.cause() instanceof KeySetRereads.Deferred deferred) {
          ctx.response().putHeader("Retry-After", String.valueOf(deferred.retryAfterSeconds()));
          ApiErrors.send(ctx, 503, "unavailable", deferred.getMessage());
        } else {
          ApiErrors.send(ctx, 401, "unauthorized", ar.cause().getMessage());
        }
      });
    };
  }

  /** The request goes on as the token's actor, marked when the open warm-up key signed it ({@link #ofWarmUp}). */
  private static void admit(RoutingContext ctx, Verified token, Vigencia.Revision revision) {
    token.actor().attachTo(ctx);
    if (token.signedBy() != null) ctx.put(WARM_UP_REQUEST, true);
    Vigencia.agregar(ctx, revision);
    ctx.next();
  }

  /** The token as verified before, while it has not expired (and its warm-up key, if one signed it, is open); else null. */
  private Verified vigente(Map<String, Verified> verified, String authorization) {
    Verified known = authorization == null ? null : verified.get(authorization);
    return known != null && known.expiresAtSecond() > System.currentTimeMillis() / 1000
      && (known.signedBy() == null || known.signedBy() == warmUp) ? known : null;
  }

  /** {@code signedBy}: the warm-up's key when one signed the token (then valid only while that key is open), else null. */
  private record Verified(Actor actor, long expiresAtSecond, WarmUpKey signedBy) {}

  /**
   * Opens the overload warm-up: a key made now, held in this process's memory only, signs tokens for
   * {@link #WARM_UP_ACTOR} alone, which this verifier accepts until the key is closed — when the process is about to
   * say it is ready. A token it signed is then refused, even by a handler that had verified it.
   */
  public WarmUpKey openWarmUp() {
    JsonObject key = Jwks.generateRs256("ccp-warm-up-" + UUID.randomUUID());
    WarmUpKey opened = new WarmUpKey(
      JWTAuth.create(vertx, new JWTAuthOptions().addJwk(key)),
      JWTAuth.create(vertx, new JWTAuthOptions().addJwk(Jwks.publicPart(key)).setJWTOptions(new JWTOptions()
        .setIssuer(config.issuer()).addAudience(config.audience()).setLeeway(LEEWAY_SECONDS))));
    warmUp = opened;
    return opened;
  }

  /** The warm-up's signing key; see {@link #openWarmUp()}. */
  public final class WarmUpKey implements AutoCloseable {

    private final JWTAuth signer;
    private final JWTAuth verifier;

    private WarmUpKey(JWTAuth signer, JWTAuth verifier) {
      this.signer = signer;
      this.verifier = verifier;
    }

    /** A new token of {@link #WARM_UP_ACTOR}, living one minute. */
    public String token() {
      return signer.generateToken(new JsonObject().put("perfil", WARM_UP_PERFIL), new JWTOptions().setAlgorithm("RS256")
        .setSubject(WARM_UP_ACTOR).setIssuer(config.issuer()).addAudience(config.audience()).setExpiresInSeconds(60));
    }

    /** From now on, no token this key signed is accepted. */
    @Override
    public void close() {
      if (warmUp == this) warmUp = null;
    }
  }

  /**
   * Whether {@link #required()} let the request through on a token of the open warm-up key: the process's own warm-up,
   * not an actor of the issuer's (whose token may name the same subject and profile).
   */
  public static boolean ofWarmUp(RoutingContext ctx) {
    return Boolean.TRUE.equals(ctx.get(WARM_UP_REQUEST));
  }

  /** A route handler that answers 403 unless the actor has one of the profiles. */
  public static Handler<RoutingContext> requirePerfil(String... perfiles) {
    Set<String> allowed = Set.of(perfiles);
    return ctx -> {
      if (allowed.contains(Actor.of(ctx).perfil())) {
        ctx.next();
      } else {
        ApiErrors.send(ctx, 403, "forbidden", "profile " + Actor.of(ctx).perfil() + " may not do this (needs " + allowed + ")");
      }
    };
  }

  private Future<Verified> verify(String authorization) {
    if (authorization == null || authorization.isBlank()) {
      return Future.failedFuture("missing Authorization header (expected: Bearer <token>)");
    }
    if (!authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return Future.failedFuture("Authorization header must use the Bearer scheme");
    }
    String token = authorization.substring(7).trim();
    String malformed = Claims.problem(token, config.maxTtlMinutes() * 60L);
    if (malformed != null) return Future.failedFuture(malformed);
    String refused = Claims.refusal(token, System.currentTimeMillis() / 1000, LEEWAY_SECONDS, config.issuer(), config.audience());
    if (refused != null) return Future.failedFuture(refused);
    TokenCredentials credentials = new TokenCredentials(token);
    WarmUpKey open = warmUp;
    return auth.authenticate(credentials)
      .map(user -> new Signed(user, null))
      .recover(err -> {
        if (!(err instanceof NoSuchKeyIdException)) return Future.failedFuture(err);
        // A key id the issuer's set lacks: the warm-up's, while it is open, or a key the issuer rotated in.
        return open == null
          ? refresh().transform(read -> again(read, credentials)).map(user -> new Signed(user, null))
          : open.verifier.authenticate(credentials).map(user -> new Signed(user, open))
            .recover(notWarmUp -> refresh().transform(read -> again(read, credentials)).map(user -> new Signed(user, null)));
      })
      .recover(err -> err instanceof KeySetRereads.Deferred ? Future.failedFuture(err) : Future.failedFuture(describe(err)))
      .compose(signed -> {
        User user = signed.user();
        // The decoded claims are the user's attributes (root claim "accessToken"), not its principal.
        String subject = user.subject();
        Object perfil = user.get("perfil");
        if (subject == null || !SUBJECT.matcher(subject).matches()) {
          return Future.failedFuture("token subject (sub) must be 1 to 128 letters, digits or _.@-");
        }
        if (!(perfil instanceof String p) || !PERFILES.contains(p)) {
          return Future.failedFuture("token has no valid perfil claim (one of " + PERFILES + ")");
        }
        if (signed.by() != null && !(WARM_UP_ACTOR.equals(subject) && WARM_UP_PERFIL.equals(p))) {
          return Future.failedFuture("the warm-up's key signs for its own actor only");
        }
        return Future.succeededFuture(new Verified(new Actor(subject, p), ((Number) user.get("exp")).longValue(), signed.by()));
      });
  }

  private record Signed(User user, WarmUpKey by) {}

  /**
   * The token checked again after a re-read of the set; a re-read the bound deferred defers the token too. A re-read
   * that failed leaves the keys as they were: the token is checked against them.
   */
  private Future<User> again(AsyncResult<Void> read, TokenCredentials credentials) {
    return read.cause() instanceof KeySetRereads.Deferred deferred ? Future.failedFuture(deferred) : auth.authenticate(credentials);
  }

  /**
   * What the verifier refused once {@link Claims} passed the token's claims: its key (a kid the issuer does not publish,
   * or an algorithm no key of it has) or its signature.
   */
  static String describe(Throwable err) {
    if (err instanceof NoSuchKeyIdException) return "token is not signed by a key of the issuer (unknown alg or kid)";
    return "token signature is not valid";
  }
}
