package ccp.seguridad;

import ccp.platform.http.Jose;
import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.platform.http.Jwks;
import ccp.platform.kafka.Topics;
import ccp.seguridad.ssf.TiposEvento;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import ccp.support.Topic;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("The transmitter's key rotated while SETs wait: each is then sent signed by a key the published JWK Set holds")
class RotacionClaveSsfTest {

  @Test
  @DisplayName("SETs held by a paused push stream and an unacknowledged poll, across a restart with a new key, verify against the JWK Set after it")
  void rotacionConSetsRetenidos() throws Exception {
    Vertx vertx = Vertx.vertx();
    List<String> recibidos = new CopyOnWriteArrayList<>();
    HttpServer receptor = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
      recibidos.add(body.toString());
      request.response().setStatusCode(202).end();
    })).listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
    Settings antes = SharedInfra.settings(Map.of("ssf.private-key", Jwks.generateRs256("ssf-antes").encode(), "ssf.barrido-ms", 100));
    Settings despues = SharedInfra.process(antes, Map.of("ssf.private-key", Jwks.generateRs256("ssf-despues").encode()));
    String area = TestTokens.devIssuer(vertx).valid(Db.newActor(antes, "SEGURIDAD"), "SEGURIDAD");
    String actor = Db.newActor(antes, "VENDEDOR");
    String alerta = UUID.randomUUID().toString();
    String push;
    String poll;

    try (RunningApp app = RunningApp.start(antes, Set.of(Role.SEGURIDAD))) {
      String ssf = app.seguridadUrl();
      push = crear(ssf, area, new JsonObject().put("method", "urn:ietf:rfc:8935")
        .put("endpoint_url", "http://127.0.0.1:" + receptor.actualPort() + "/ssf"));
      assertThat(Http.post(ssf + "/v1/ssf/status", area, new JsonObject().put("stream_id", push).put("status", "paused").encode())
        .status()).isEqualTo(200);
      poll = crear(ssf, area, null);
      JsonObject data = new JsonObject().put("id_alerta", alerta).put("tipo", "DISPOSITIVO_NO_VALIDO").put("actor", actor)
        .put("sesion", UUID.randomUUID().toString()).put("huella_presentada", "rotacion");
      Topic.send(antes, Topics.ALERTA_SEGURIDAD, actor, new JsonObject().put("specversion", "1.0").put("id", alerta)
        .put("type", "ccp.alerta.seguridad").put("source", "/test").put("time", Instant.now().toString()).put("subject", actor)
        .put("data", data).encode());
      String previo = await("the SET held for the poll").atMost(Duration.ofSeconds(10))
        .until(() -> Http.post(ssf + "/v1/ssf/poll/" + poll, area, "{}").json().getJsonObject("sets"), s -> s.containsKey(alerta))
        .getString(alerta);
      assertThat(Jose.parts(previo).header().getString("kid")).isEqualTo("ssf-antes");
      assertThat(Db.count(antes, "SELECT count(*) FROM seguridad.ssf_entregas WHERE id_flujo = ? AND jti = ? AND entregada_en IS NULL",
        push, alerta)).as("held by the paused stream").isEqualTo(1);
    }

    try (RunningApp app = RunningApp.start(despues, Set.of(Role.SEGURIDAD))) {
      String ssf = app.seguridadUrl();
      JsonObject jwks = Http.get(ssf + "/ssf/jwks", null).json();
      assertThat(jwks.getJsonArray("keys").stream().map(k -> ((JsonObject) k).getString("kid"))).containsExactly("ssf-despues");
      assertThat(Http.post(ssf + "/v1/ssf/status", area, new JsonObject().put("stream_id", push).put("status", "enabled").encode())
        .status()).isEqualTo(200);
      String empujado = await("the held SET pushed once enabled").atMost(Duration.ofSeconds(10)).until(() -> recibidos, l -> !l.isEmpty())
        .get(0);
      assertThat(verificado(jwks, empujado).getString("jti")).isEqualTo(alerta);
      String sondeado = Http.post(ssf + "/v1/ssf/poll/" + poll, area, "{}").json().getJsonObject("sets").getString(alerta);
      assertThat(verificado(jwks, sondeado).getString("jti")).isEqualTo(alerta);
      Http.send("DELETE", ssf + "/v1/ssf/stream?stream_id=" + push, area, "");
      Http.send("DELETE", ssf + "/v1/ssf/stream?stream_id=" + poll, area, "");
    } finally {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  private static String crear(String ssf, String area, JsonObject delivery) {
    JsonObject body = new JsonObject().put("events_requested", new JsonArray().add(TiposEvento.DISPOSITIVO_NO_VALIDO));
    if (delivery != null) body.put("delivery", delivery);
    Http.Response creado = Http.post(ssf + "/v1/ssf/stream", area, body.encode());
    assertThat(creado.status()).as(creado.body()).isEqualTo(201);
    return creado.json().getString("stream_id");
  }

  private static JsonObject verificado(JsonObject jwks, String set) {
    List<JsonObject> keys = new ArrayList<>();
    jwks.getJsonArray("keys").forEach(key -> keys.add((JsonObject) key));
    try {
      return Jose.KeySet.of(keys).verify(set);
    } catch (RuntimeException e) {
      throw new AssertionError("the SET (kid " + Jose.parts(set).header().getString("kid")
        + ") does not verify against the published JWK Set", e);
    }
  }
}
