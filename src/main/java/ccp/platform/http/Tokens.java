package ccp.platform.http;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.PubSecKeyOptions;
import io.vertx.ext.auth.authentication.TokenCredentials;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import io.vertx.ext.web.RoutingContext;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Bearer tokens (JWT, HS256) of the App: the subject is the actor, the {@code perfil} claim the profile that the
 * identity provider stated. A token must carry an expiry; the answer to a bad token names what is wrong.
 */
public final class Tokens {

  /** The profile of the system's own services calling each other's internal endpoints. */
  public static final String SISTEMA = "SISTEMA";
  private static final int VERIFIED_CACHE_SIZE = 4096;
  private static final java.util.regex.Pattern SUBJECT = java.util.regex.Pattern.compile("[A-Za-z0-9_.@-]{1,128}");

  public static final Set<String> PERFILES = Set.of("VENDEDOR", "CONSULTA", "SEGURIDAD", "OPERADOR", SISTEMA);

  private final JWTAuth auth;
  private final JwtConfig config;

  private Tokens(JWTAuth auth, JwtConfig config) {
    this.auth = auth;
    this.config = config;
  }

  public static Tokens create(Vertx vertx, JwtConfig config) {
    JWTAuthOptions options = new JWTAuthOptions()
      .addPubSecKey(new PubSecKeyOptions().setAlgorithm("HS256").setBuffer(config.secret()))
      .setJWTOptions(new JWTOptions().setIssuer(config.issuer()).setLeeway(5));
    return new Tokens(JWTAuth.create(vertx, options), config);
  }

  public String mint(String actor, String perfil) {
    JWTOptions options = new JWTOptions()
      .setAlgorithm("HS256")
      .setSubject(actor)
      .setIssuer(config.issuer())
      .setExpiresInMinutes(config.ttlMinutes());
    return auth.generateToken(new JsonObject().put("perfil", perfil), options);
  }

  public long ttlMillis() {
    return config.ttlMinutes() * 60_000L;
  }

  /**
   * A route handler that answers 401 unless the request carries a valid token, and attaches its {@link Actor}.
   * Each call makes a handler with its own cache of verified tokens, confined to the verticle that routes with it:
   * a token's signature and claims are checked once, its expiry on every use. (Revocation is not a property of the
   * token: the gateway reads the Lista de revocación on every request.)
   */
  public Handler<RoutingContext> required() {
    Map<String, Verified> verified = new LinkedHashMap<>(256, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Verified> eldest) {
        return size() > VERIFIED_CACHE_SIZE;
      }
    };
    return ctx -> {
      String authorization = ctx.request().getHeader("Authorization");
      Verified known = authorization == null ? null : verified.get(authorization);
      if (known != null && known.expiresAtSecond() > System.currentTimeMillis() / 1000) {
        known.actor().attachTo(ctx);
        ctx.next();
        return;
      }
      verify(authorization).onComplete(ar -> {
        if (ar.succeeded()) {
          verified.put(authorization, ar.result());
          ar.result().actor().attachTo(ctx);
          ctx.next();
        } else {
          ApiErrors.send(ctx, 401, "unauthorized", ar.cause().getMessage());
        }
      });
    };
  }

  private record Verified(Actor actor, long expiresAtSecond) {}

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
    return auth.authenticate(new TokenCredentials(authorization.substring(7).trim()))
      .recover(err -> Future.failedFuture(describe(err)))
      .compose(user -> {
        // The decoded claims are the user's attributes (root claim "accessToken"), not its principal.
        String subject = user.subject();
        Object perfil = user.get("perfil");
        if (!user.containsKey("exp")) return Future.failedFuture("token has no expiry (exp)");
        if (subject == null || !SUBJECT.matcher(subject).matches()) {
          return Future.failedFuture("token subject (sub) must be 1 to 128 letters, digits or _.@-");
        }
        if (!(perfil instanceof String p) || !PERFILES.contains(p)) {
          return Future.failedFuture("token has no valid perfil claim (one of " + PERFILES + ")");
        }
        return Future.succeededFuture(new Verified(new Actor(subject, p), ((Number) user.get("exp")).longValue()));
      });
  }

  private static String describe(Throwable err) {
    String message = String.valueOf(err.getMessage());
    if (message.toLowerCase().contains("expired")) return "token expired";
    if (message.toLowerCase().contains("signature")) return "token signature is not valid";
    return "token is not valid: " + message;
  }
}
