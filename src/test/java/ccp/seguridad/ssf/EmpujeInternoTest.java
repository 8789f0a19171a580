package ccp.seguridad.ssf;

import ccp.app.Role;
import ccp.platform.kafka.Topics;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import ccp.support.Topic;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("A stream cannot make seguridad push inside the network, as a cluster runs it (ssf.push-private-allowed=false)")
class EmpujeInternoTest {

  private static RunningApp app;
  private static Vertx vertx;
  private static String area;

  @BeforeAll
  static void start() throws Exception {
    app = RunningApp.start(SharedInfra.settings(Map.of("ssf.push-private-allowed", false, "ssf.barrido-ms", 100,
      "ssf.retry-initial-ms", 50, "ssf.retry-max-ms", 200)), Set.of(Role.SEGURIDAD));
    vertx = Vertx.vertx();
    area = TestTokens.devIssuer(vertx).valid(Db.newActor(app.settings(), "SEGURIDAD"), "SEGURIDAD");
  }

  @AfterAll
  static void stop() throws Exception {
    app.close();
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  @Test
  @DisplayName("every internal address, in every IPv4-mapped, IPv4-compatible, NAT64, 6to4 and Teredo form, and a port out of range: 400 naming delivery.endpoint_url, nothing created")
  void alCrear() {
    List<String> urls = new java.util.ArrayList<>(DestinoPushTest.INTERNAS);
    urls.add("https://1.1.1.1:99999/");
    urls.add("http://93.184.216.34/ssf");
    for (String url : urls) {
      Http.Response respuesta = Http.post(app.seguridadUrl() + "/v1/ssf/stream", area, new JsonObject().put("delivery",
        new JsonObject().put("method", "urn:ietf:rfc:8935").put("endpoint_url", url)).encode());
      assertThat(respuesta.status()).as(url + ": " + respuesta.body()).isEqualTo(400);
      assertThat(respuesta.json().getString("field")).as(url).isEqualTo("delivery.endpoint_url");
    }
    assertThat(new JsonArray(Http.get(app.seguridadUrl() + "/v1/ssf/stream", area).body())).isEmpty();
  }

  @Test
  @DisplayName("a stream whose name now resolves to loopback (DNS rebinding): its SETs are not pushed there, the refusal is recorded and retried")
  void alConectar() throws Exception {
    List<Integer> conexiones = new CopyOnWriteArrayList<>();
    NetServer interno = vertx.createNetServer().connectHandler(socket -> conexiones.add(1)).listen(0, "127.0.0.1")
      .await(10, TimeUnit.SECONDS);
    // Created while its name resolved to a public address; it resolves to 127.0.0.1 now.
    String flujo = Streams.nuevoId();
    String url = "https://localhost:" + interno.actualPort() + "/ssf";
    Db.update(app.settings(), "INSERT INTO seguridad.ssf_flujos (id_flujo, aud, metodo, endpoint_url, eventos_solicitados, "
      + "eventos_entregados, creado_por) VALUES (?, ?, 'urn:ietf:rfc:8935', ?, ARRAY[?], ARRAY[?], ?)", flujo, url, url,
      TiposEvento.DISPOSITIVO_NO_VALIDO, TiposEvento.DISPOSITIVO_NO_VALIDO, "seguridad-rebinding");
    try {
      String actor = Db.newActor(app.settings(), "VENDEDOR");
      JsonObject alerta = new JsonObject().put("id_alerta", UUID.randomUUID().toString()).put("tipo", "DISPOSITIVO_NO_VALIDO")
        .put("actor", actor).put("sesion", UUID.randomUUID().toString()).put("huella_presentada", "rebinding");
      Topic.send(app.settings(), Topics.ALERTA_SEGURIDAD, actor, new JsonObject().put("specversion", "1.0")
        .put("id", alerta.getString("id_alerta")).put("type", "ccp.alerta.seguridad").put("source", "/test")
        .put("time", Instant.now().toString()).put("subject", actor).put("data", alerta).encode());
      await("the push refused at connect time, and tried again").atMost(Duration.ofSeconds(15)).until(() -> Db.strings(app.settings(),
        "SELECT intentos || ' ' || coalesce(ultimo_error, '') FROM seguridad.ssf_entregas WHERE id_flujo = ?", flujo),
        l -> l.size() == 1 && l.get(0).contains("localhost resolves to") && Integer.parseInt(l.get(0).split(" ")[0]) >= 2);
      assertThat(conexiones).as("never connected to the internal address").isEmpty();
      assertThat(Db.count(app.settings(), "SELECT count(*) FROM seguridad.ssf_entregas WHERE id_flujo = ? AND entregada_en IS NULL",
        flujo)).isEqualTo(1);
    } finally {
      Db.update(app.settings(), "DELETE FROM seguridad.ssf_flujos WHERE id_flujo = ?", flujo);
      interno.close().await(10, TimeUnit.SECONDS);
    }
  }
}
