package ccp.consola;

import ccp.support.TestTokens;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * An OpenID provider as small as the console's sign-in needs, strict where the flow's security is: it signs in the
 * actor the test names (no login page), answers a code only to the public client {@code ccp-consola} with an S256
 * challenge, and exchanges that code once, for the same redirect URI, against the verifier whose hash is the
 * challenge. Its access tokens are signed by the development issuer, which the gateway trusts.
 */
final class ProveedorOidc implements AutoCloseable {

  static final String CLIENTE = "ccp-consola";

  private record Codigo(String reto, String redireccion, String actor, String perfil) {}

  private final Map<String, Codigo> codigos = new ConcurrentHashMap<>();
  private final TestTokens tokens;
  private final HttpServer server;
  private volatile String actor;
  private volatile String perfil;

  private ProveedorOidc(Vertx vertx, TestTokens tokens) throws Exception {
    this.tokens = tokens;
    Router router = Router.router(vertx);
    router.route().handler(BodyHandler.create());
    router.get("/.well-known/openid-configuration").handler(ctx -> cors(ctx).putHeader("Content-Type", "application/json")
      .end(new JsonObject().put("issuer", url()).put("authorization_endpoint", url() + "/auth")
        .put("token_endpoint", url() + "/token").encode()));
    router.get("/auth").handler(this::autorizar);
    router.post("/token").handler(this::canjear);
    server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
  }

  static ProveedorOidc start(Vertx vertx, TestTokens tokens) throws Exception {
    return new ProveedorOidc(vertx, tokens);
  }

  String url() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  /** Who the next sign-in is. */
  void siguiente(String actor, String perfil) {
    this.actor = actor;
    this.perfil = perfil;
  }

  private void autorizar(RoutingContext ctx) {
    var q = ctx.queryParams();
    if (!"code".equals(q.get("response_type")) || !CLIENTE.equals(q.get("client_id")) || !"S256".equals(q.get("code_challenge_method"))
      || q.get("code_challenge") == null || q.get("state") == null || q.get("redirect_uri") == null) {
      ctx.response().setStatusCode(400).end("bad authorization request");
      return;
    }
    String codigo = UUID.randomUUID().toString();
    codigos.put(codigo, new Codigo(q.get("code_challenge"), q.get("redirect_uri"), actor, perfil));
    ctx.redirect(q.get("redirect_uri") + "?code=" + codigo + "&state=" + q.get("state"));
  }

  private void canjear(RoutingContext ctx) {
    var form = ctx.request().formAttributes();
    Codigo codigo = codigos.remove(String.valueOf(form.get("code")));
    if (codigo == null || !"authorization_code".equals(form.get("grant_type")) || !CLIENTE.equals(form.get("client_id"))
      || !codigo.redireccion().equals(form.get("redirect_uri")) || !codigo.reto().equals(s256(form.get("code_verifier")))) {
      cors(ctx).setStatusCode(400).putHeader("Content-Type", "application/json")
        .end(new JsonObject().put("error", "invalid_grant").encode());
      return;
    }
    cors(ctx).putHeader("Content-Type", "application/json").end(new JsonObject()
      .put("access_token", tokens.valid(codigo.actor(), codigo.perfil())).put("token_type", "Bearer").encode());
  }

  private static io.vertx.core.http.HttpServerResponse cors(RoutingContext ctx) {
    return ctx.response().putHeader("Access-Control-Allow-Origin", "*");
  }

  private static String s256(String verificador) {
    if (verificador == null) return "";
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(verificador.getBytes(StandardCharsets.US_ASCII));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(hash);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() throws Exception {
    server.close().await(10, TimeUnit.SECONDS);
  }
}
