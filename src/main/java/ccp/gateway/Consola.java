package ccp.gateway;

import ccp.platform.http.ApiErrors;
import ccp.platform.http.JsonBody;
import ccp.platform.http.JsonResponse;
import ccp.platform.http.Jwks;
import ccp.platform.infra.DevIssuer;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.handler.StaticHandler;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * The web console of the people in the loop (the security area, the operators, the vendedores), served by the gateway
 * from the jar ({@code consola/} on the classpath) at {@code /consola/}: plain ES modules and CSS, no build step. Its
 * pages call the same {@code /v1} routes as the App, behind the same token and revocation checks; what is served here
 * outside {@code /v1} is only what a person needs before holding a token:
 * <ul>
 *   <li>{@code GET /consola/config.json}: how to sign in — the OIDC issuer and public client ({@code consola.oidc.*},
 *   authorization code + PKCE, done by the page against the issuer), and whether the development sign-in is offered;</li>
 *   <li>the development sign-in, only where the development issuer is the App's issuer: its key
 *   ({@code <data.dir>/dev-issuer.jwk}) is present and its public part is in the JWK Set the gateway verifies tokens
 *   with ({@code jwt.jwks-url}). Beside Keycloak that key is in no JWK Set the gateway trusts, so these routes do not
 *   exist (404): {@code GET /consola/desarrollo/actores} (a few demo actors per profile) and
 *   {@code POST /consola/desarrollo/sesion} {@code {"actor"}} (a token for that actor, with its profile in the Gestor's
 *   directory).</li>
 * </ul>
 */
final class Consola {

  private static final Logger LOG = LoggerFactory.getLogger(Consola.class);

  private static final String PERFIL = "SELECT perfil FROM gestor.actores WHERE id = $1";
  /** The demo seed's first actors of each profile (db/gestor-demo), by id. */
  private static final String DEMO = """
    SELECT id, perfil FROM (SELECT id, perfil, row_number() OVER (PARTITION BY perfil ORDER BY length(id), id) AS n
                            FROM gestor.actores WHERE NOT bloqueado) a
    WHERE n <= 3 ORDER BY perfil, n""";

  private final GatewayConfig config;
  private final SqlClient sql;
  private final DevIssuer desarrollo;

  /** {@code desarrollo}: the development issuer, when it is the App's issuer; null otherwise. */
  Consola(GatewayConfig config, SqlClient sql, DevIssuer desarrollo) {
    this.config = config;
    this.sql = sql;
    this.desarrollo = desarrollo;
  }

  /**
   * The development issuer's private key, if it is the App's issuer: read once per process (blocking file read, on a
   * worker), compared with the keys at {@code jwt.jwks-url}.
   */
  static Future<Optional<JsonObject>> claveDesarrollo(Vertx vertx, GatewayConfig config, long timeoutMs) {
    Path file = config.dataDir().resolve(DevIssuer.FILE);
    return vertx.executeBlocking(() -> Files.exists(file) ? Optional.of(Jwks.read(file)) : Optional.<JsonObject>empty())
      .compose(clave -> {
        if (clave.isEmpty() || config.jwt().jwksUrl().isBlank()) return Future.succeededFuture(Optional.<JsonObject>empty());
        JsonObject publica = Jwks.publicPart(clave.get());
        WebClient client = WebClient.create(vertx);
        return client.getAbs(config.jwt().jwksUrl()).timeout(timeoutMs).send()
          .map(response -> {
            JsonArray keys = response.statusCode() == 200 ? response.bodyAsJsonObject().getJsonArray("keys", new JsonArray()) : new JsonArray();
            boolean emisor = keys.stream().anyMatch(publica::equals);
            if (emisor) LOG.info("Console: development sign-in offered (the development issuer is the App's issuer)");
            return emisor ? clave : Optional.<JsonObject>empty();
          })
          .recover(err -> {
            LOG.warn("Console: the JWK Set at {} could not be read ({}); no development sign-in", config.jwt().jwksUrl(), err.toString());
            return Future.succeededFuture(Optional.empty());
          })
          .onComplete(done -> client.close());
      });
  }

  void mount(Router router) {
    router.get("/").handler(ctx -> ctx.redirect("/consola/"));
    // Every console resource, its sign-in's answers and its errors included, carries the same security headers.
    router.route("/consola/*").handler(ctx -> {
      // Revalidated on each load (Last-Modified): an upgraded jar's pages reach the browser at once.
      ctx.response().putHeader("Cache-Control", "no-cache")
        .putHeader("Content-Security-Policy", politica())
        .putHeader("X-Content-Type-Options", "nosniff")
        .putHeader("Referrer-Policy", "no-referrer");
      ctx.next();
    });
    router.get("/consola/config.json").handler(this::configuracion);
    if (desarrollo != null) {
      router.get("/consola/desarrollo/actores").handler(this::actoresDemo);
      router.post("/consola/desarrollo/sesion").handler(this::sesionDesarrollo);
    }
    router.route("/consola/*").handler(StaticHandler.create("consola").setDefaultContentEncoding("UTF-8").setCachingEnabled(false));
  }

  /** Scripts and styles from the gateway only; calls to it and, for the OIDC sign-in, to the issuer. */
  private String politica() {
    String issuer = config.oidcIssuer().isBlank() ? "" : " " + origen(config.oidcIssuer());
    return "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'" + issuer
      + "; frame-ancestors 'none'; base-uri 'none'; form-action 'self'" + issuer;
  }

  private static String origen(String url) {
    URI uri = URI.create(url);
    return uri.getScheme() + "://" + uri.getAuthority();
  }

  private void configuracion(RoutingContext ctx) {
    JsonObject oidc = config.oidcIssuer().isBlank() ? null
      : new JsonObject().put("issuer", config.oidcIssuer()).put("client_id", config.oidcClientId());
    ctx.response().putHeader("Cache-Control", "no-store");
    JsonResponse.ok(ctx, new JsonObject().put("desarrollo", desarrollo != null).put("oidc", oidc));
  }

  private void actoresDemo(RoutingContext ctx) {
    sql.query(DEMO).execute().onSuccess(rows -> {
      JsonArray actores = new JsonArray();
      for (Row row : rows) actores.add(new JsonObject().put("actor", row.getString("id")).put("perfil", row.getString("perfil")));
      JsonResponse.ok(ctx, new JsonObject().put("actores", actores));
    }).onFailure(ctx::fail);
  }

  /**
   * A token for the actor named, with its profile in the directory. A revoked or blocked actor gets one too: the
   * console then shows why each of its calls is refused, as the App would.
   */
  private void sesionDesarrollo(RoutingContext ctx) {
    Object nombrado = JsonBody.object(ctx, Set.of("actor")).getValue("actor");
    String actor = JsonBody.actorId(nombrado instanceof String texto ? texto : null, "actor");
    sql.preparedQuery(PERFIL).execute(Tuple.of(actor)).onSuccess(rows -> {
      if (rows.size() == 0) {
        ApiErrors.send(ctx, 404, "unknown_actor", "actor " + actor + " is not registered in the Gestor");
        return;
      }
      String perfil = rows.iterator().next().getString("perfil");
      ctx.response().putHeader("Cache-Control", "no-store");
      JsonResponse.ok(ctx, new JsonObject().put("token", desarrollo.mint(actor, perfil)).put("actor", actor).put("perfil", perfil)
        .put("expira_en", Instant.now().plusSeconds(config.jwt().ttlMinutes() * 60L).toString()));
    }).onFailure(ctx::fail);
  }
}
