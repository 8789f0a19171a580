package ccp.platform.http;

import ccp.app.Application;
import ccp.app.Role;
import ccp.support.OnVertx;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@DisplayName("Tokens: the App's tokens verified with the issuer's JWK Set, read from its URL")
class TokensTest {

  private static final JwtConfig CONFIG = new JwtConfig("", "https://issuer.test", "ccp-app", 60, 10);

  private Vertx vertx;
  private final AtomicReference<Object> published = new AtomicReference<>();
  private final AtomicInteger reads = new AtomicInteger();
  private String jwksUrl;

  @BeforeEach
  void serveJwks() {
    vertx = Vertx.vertx();
    Router router = Router.router(vertx);
    router.get("/certs").handler(ctx -> {
      reads.incrementAndGet();
      Object body = published.get();
      if (body instanceof Integer status) {
        ctx.response().setStatusCode(status).end();
      } else if (body != null) {
        ctx.json(body);
      }
      // null: never answers.
    });
    HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await();
    jwksUrl = "http://127.0.0.1:" + server.actualPort() + "/certs";
  }

  @AfterEach
  void stop() {
    vertx.close().await();
  }

  @Test
  @DisplayName("no usable key, no verifier: an empty set, an HS256 (oct) key, a key without kid, an answer other than 200, no answer in time")
  void refusesToVerifyWithNoKey() {
    // vertx-auth-jwt built with no key accepts unsigned tokens: starting like that must be impossible.
    JsonObject rsa = Jwks.generateEs256("x");
    for (JsonObject set : new JsonObject[] {
      new JsonObject().put("keys", new JsonArray()),
      new JsonObject().put("keys", new JsonArray().add(new JsonObject().put("kty", "oct").put("kid", "h").put("k", "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA"))),
      new JsonObject().put("keys", new JsonArray().add(Jwks.publicPart(rsa).copy().put("kid", ""))),
      new JsonObject().put("keys", new JsonArray().add(Jwks.publicPart(rsa).copy().put("use", "enc"))),
      new JsonObject().put("nokeys", 1)}) {
      published.set(set);
      assertThatThrownBy(() -> fetch(5_000)).as(set.encode()).hasMessageContaining("the JWK Set at " + jwksUrl);
    }
    published.set(404);
    assertThatThrownBy(() -> fetch(5_000)).hasMessageContaining("answered 404");
    published.set(null);
    long began = System.nanoTime();
    assertThatThrownBy(() -> fetch(500)).hasMessageContaining("cannot read the JWK Set");
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began)).isLessThan(5_000);
    assertThatThrownBy(() -> Tokens.fetch(vertx, CONFIG, 500).await()).hasMessageContaining("CCP_JWT_JWKS_URL is not set");
  }

  @Test
  @DisplayName("a key the issuer rotates in is read on first sight of its kid; unknown kids re-read the set at most once per "
    + "5 s, and meanwhile get 503 (the key may be one just published), not 401")
  void rotatedKeyIsFetchedOnce() {
    JsonObject viejo = Jwks.generateEs256("viejo");
    JsonObject nuevo = Jwks.generateEs256("nuevo");
    published.set(new JsonObject().put("keys", new JsonArray().add(Jwks.publicPart(viejo))));
    Tokens tokens = fetch(5_000);
    Router router = Router.router(vertx);
    router.get("/v1/x").handler(tokens.required()).handler(ctx -> ctx.end(Actor.of(ctx).id()));
    int port = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await().actualPort();
    WebClient client = WebClient.create(vertx);

    assertThat(get(client, port, mint(viejo, "vendedor-1", 10))).isEqualTo(200);
    assertThat(reads).hasValue(1);
    published.set(new JsonObject().put("keys", new JsonArray().add(Jwks.publicPart(viejo)).add(Jwks.publicPart(nuevo))));
    assertThat(get(client, port, mint(nuevo, "vendedor-1", 10))).isEqualTo(200);
    assertThat(reads).hasValue(2);
    for (int i = 0; i < 5; i++) assertThat(get(client, port, mint(Jwks.generateEs256("forjado-" + i), "vendedor-1", 10))).isEqualTo(503);
    assertThat(reads).as("unknown kids do not hammer the issuer").hasValue(2);
    assertThat(get(client, port, mint(nuevo, "vendedor-1", 61))).isEqualTo(401);
  }

  @Test
  @DisplayName("the warm-up's key: its tokens pass while it is open, for its own actor; once closed they fail, also where a handler had verified them")
  void warmUpKeyLivesUntilClosed() {
    JsonObject issuer = Jwks.generateEs256("issuer");
    published.set(new JsonObject().put("keys", new JsonArray().add(Jwks.publicPart(issuer))));
    Tokens tokens = fetch(5_000);
    Router router = Router.router(vertx);
    router.get("/v1/x").handler(tokens.required())
      .handler(ctx -> ctx.end(Actor.of(ctx).id() + "/" + Actor.of(ctx).perfil() + (Tokens.ofWarmUp(ctx) ? " (warm-up)" : "")));
    int port = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await().actualPort();
    WebClient client = WebClient.create(vertx);

    Tokens.WarmUpKey key = tokens.openWarmUp();
    String token = key.token();
    for (int vez = 0; vez < 2; vez++) {
      var answer = OnVertx.call(vertx, () -> client.get(port, "127.0.0.1", "/v1/x").bearerTokenAuthentication(token).send()).await();
      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(answer.bodyAsString()).as("verified, then known").isEqualTo(Tokens.WARM_UP_ACTOR + "/CONSULTA (warm-up)");
    }
    String delEmisor = JWTAuth.create(vertx, new JWTAuthOptions().addJwk(issuer)).generateToken(new JsonObject().put("perfil", "CONSULTA"),
      new JWTOptions().setAlgorithm("ES256").setSubject(Tokens.WARM_UP_ACTOR).setIssuer(CONFIG.issuer()).addAudience(CONFIG.audience())
        .setExpiresInMinutes(10));
    var delIssuer = OnVertx.call(vertx, () -> client.get(port, "127.0.0.1", "/v1/x").bearerTokenAuthentication(delEmisor).send()).await();
    assertThat(delIssuer.bodyAsString()).as("the issuer's token naming the warm-up's actor is not the warm-up's")
      .isEqualTo(Tokens.WARM_UP_ACTOR + "/CONSULTA");
    assertThat(get(client, port, mint(Jwks.generateRs256("forjado"), Tokens.WARM_UP_ACTOR, 1, "RS256")))
      .as("the warm-up's actor with a key of no one's").isEqualTo(401);

    key.close();
    // Its key id is now unknown: the JWK Set is read again for it, and within that re-read's bound (the forged token's
    // re-read above) the answer is 503 to retry, after it 401. Either way refused.
    assertThat(get(client, port, token)).as("verified and cached before the close").isIn(401, 503);
    Router fresh = Router.router(vertx);
    fresh.get("/v1/x").handler(tokens.required()).handler(ctx -> ctx.end());
    int otherPort = vertx.createHttpServer().requestHandler(fresh).listen(0, "127.0.0.1").await().actualPort();
    assertThat(get(client, otherPort, token)).as("never seen before the close").isIn(401, 503);
    assertThat(get(client, otherPort, key.token())).as("signed after the close").isIn(401, 503);
    assertThat(get(client, port, mint(issuer, "vendedor-1", 10))).as("the issuer's tokens as before").isEqualTo(200);
  }

  @Test
  @DisplayName("a process whose roles serve no HTTP holds no key and reads no JWK Set; one that serves refuses to start without them")
  void keysOnlyWhereUsed() throws Exception {
    var sinClaves = SharedInfra.settings(Map.of("jwt.jwks-url", "http://127.0.0.1:9/none", "peer.jwks", "", "peer.private-key", ""));
    try (RunningApp etapa = RunningApp.start(sinClaves, Set.of(Role.FACTURACION))) {
      assertThat(etapa.app().managementPort()).isPositive();
    }
    assertThatThrownBy(() -> Application.start(sinClaves, Set.of(Role.GESTOR)).await(30, TimeUnit.SECONDS))
      .hasMessageContaining("CCP_PEER_JWKS is not set");
    assertThatThrownBy(() -> Application.start(sinClaves, Set.of(Role.SEGURIDAD)).await(30, TimeUnit.SECONDS))
      .hasMessageContaining("CCP_PEER_PRIVATE_KEY is not set");
    assertThatThrownBy(() -> Application.start(sinClaves, Set.of(Role.CADENA)).await(30, TimeUnit.SECONDS))
      .hasMessageContaining("cannot read the JWK Set at http://127.0.0.1:9/none");
    var otraClave = SharedInfra.settings(Map.of("peer.private-key", Jwks.generateEs256("gateway").encode()));
    assertThatThrownBy(() -> Application.start(otraClave, Set.of(Role.SEGURIDAD)).await(30, TimeUnit.SECONDS))
      .hasMessageContaining("the key of role seguridad must have kid 'seguridad'");
  }

  private Tokens fetch(long timeoutMs) {
    return Tokens.fetch(vertx, new JwtConfig(jwksUrl, CONFIG.issuer(), CONFIG.audience(), 60, 10), timeoutMs).await();
  }

  private String mint(JsonObject key, String actor, int minutes) {
    return mint(key, actor, minutes, "ES256");
  }

  private String mint(JsonObject key, String actor, int minutes, String algorithm) {
    return JWTAuth.create(vertx, new JWTAuthOptions().addJwk(key)).generateToken(new JsonObject().put("perfil", "VENDEDOR"),
      new JWTOptions().setAlgorithm(algorithm).setSubject(actor).setIssuer(CONFIG.issuer()).addAudience(CONFIG.audience())
        .setExpiresInMinutes(minutes));
  }

  private int get(WebClient client, int port, String token) {
    return OnVertx.call(vertx, () -> client.get(port, "127.0.0.1", "/v1/x").bearerTokenAuthentication(token).send()).await().statusCode();
  }
}
