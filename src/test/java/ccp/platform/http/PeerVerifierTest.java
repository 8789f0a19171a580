package ccp.platform.http;

import ccp.support.OnVertx;
import io.vertx.core.Vertx;
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

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("Peer tokens: verified once, then kept for their life only, for the caller whose key signed them")
class PeerVerifierTest {

  private Vertx vertx;
  private WebClient client;
  private JsonObject seguridad;
  private JsonObject cadena;
  private int port;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
    seguridad = Jwks.generateEs256("seguridad");
    cadena = Jwks.generateEs256("cadena");
    String jwks = new JsonObject().put("keys", new JsonArray().add(Jwks.publicPart(seguridad)).add(Jwks.publicPart(cadena))).encode();
    PeerVerifier verifier = PeerVerifier.create(vertx, new PeerConfig("", jwks));
    Router router = Router.router(vertx);
    router.post("/interno/x").handler(verifier.admit("gestor", "seguridad")).handler(ctx -> ctx.end("ok"));
    port = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await().actualPort();
    client = WebClient.create(vertx);
  }

  @AfterEach
  void stop() {
    vertx.close().await();
  }

  @Test
  @DisplayName("a token passes again from the cache; a forged one with the same kid, a caller not drawn and an expired one do not")
  void cachedTokensKeepEveryRule() {
    String valid = mint(seguridad, "seguridad", "gestor", 60);
    assertThat(post(valid)).isEqualTo(200);
    assertThat(post(valid)).as("again, from the cache").isEqualTo(200);

    assertThat(post(mint(Jwks.generateEs256("seguridad"), "seguridad", "gestor", 60)))
      .as("another key claiming seguridad's kid, after seguridad's token was cached").isEqualTo(401);
    String otherRole = mint(cadena, "cadena", "gestor", 60);
    assertThat(post(otherRole)).as("a caller the view does not draw").isEqualTo(403);
    assertThat(post(otherRole)).as("the same, from the cache").isEqualTo(403);
    assertThat(post(mint(seguridad, "seguridad", "pedidos", 60))).as("for another role").isEqualTo(401);

    String shortLived = mint(seguridad, "seguridad", "gestor", 1);
    assertThat(post(shortLived)).isEqualTo(200);
    // Past its exp and the verifier's 5 s leeway, a token verified before is refused as one never seen.
    await("the cached token refused once expired").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(500))
      .until(() -> post(shortLived) == 401);
    assertThat(post(valid)).as("the long-lived one still passes").isEqualTo(200);
  }

  private int post(String token) {
    return OnVertx.call(vertx, () -> client.post(port, "127.0.0.1", "/interno/x").bearerTokenAuthentication(token).send()).await().statusCode();
  }

  private String mint(JsonObject key, String caller, String callee, int seconds) {
    return JWTAuth.create(vertx, new JWTAuthOptions().addJwk(key.copy().put("alg", "ES256")))
      .generateToken(new JsonObject(), new JWTOptions().setAlgorithm("ES256").setIssuer(caller).setSubject(caller)
        .addAudience(callee).setExpiresInSeconds(seconds));
  }
}
