package ccp.pedidos;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("Writes are refused while the outbox is behind: what is accepted is published, and so detected, in time")
class OutboxAdmissionTest {

  private static final String ORDEN = "{\"tendero\":\"T-1\",\"lineas\":[{\"producto\":\"P-1\",\"cantidad\":1}]}";

  /**
   * Two rows of one key, committed an hour ago: the first claimed by a relay that died (its claim runs for an hour), the
   * second waiting behind it, since a key's order holds across relays. The second has waited an hour for a relay, as
   * rows do behind a relay that fell behind: before this change the door accepted every order regardless. The first,
   * under a live claim, does not count: a batch in flight is being published.
   */
  @Test
  @DisplayName("a row waiting for a relay longer than outbox.admission-max-age-ms → 503 overloaded, before the token is checked; once it is gone → 201")
  void rechazaMientrasElOutboxVaAtrasado() throws Exception {
    Settings cluster = SharedInfra.settings(Map.of("outbox.admission-max-age-ms", 2_000));
    String vendedor = Db.newActor(cluster, "VENDEDOR");
    String clave = "atrasado-" + UUID.randomUUID();
    try (RunningApp pedidos = RunningApp.start(cluster, Set.of(Role.PEDIDOS, Role.GATEWAY, Role.GESTOR))) {
      String token = TestTokens.devIssuer(pedidos.app().vertx()).valid(vendedor, "VENDEDOR");
      String url = pedidos.pedidosUrl() + "/v1/pedidos";
      assertThat(Http.post(url, token, ORDEN).status()).isEqualTo(201);
      // An open door hands the write to the token check, never around it: no token, no order.
      for (String door : List.of(url, pedidos.gatewayUrl() + "/v1/pedidos")) {
        assertThat(Http.post(door, null, ORDEN).status()).as(door + " without a token, its doors open").isEqualTo(401);
      }
      assertThat(Db.count(cluster, "SELECT count(*) FROM pedidos.pedidos WHERE actor = ?", vendedor)).isEqualTo(1);

      Db.update(cluster, """
        INSERT INTO pedidos.outbox (id_evento, topic, clave, valor, creado_en, reclamado_en)
        VALUES (?::uuid, 'escritura.realizada', ?, '{}', now() - interval '1 hour', now() + interval '1 hour')""",
        UUID.randomUUID().toString(), clave);
      await("a row under a live claim is being published: writes still accepted")
        .during(Duration.ofMillis(4 * 250)).atMost(Duration.ofSeconds(3))
        .until(() -> Http.post(url, token, ORDEN).status() == 201);
      Db.update(cluster, """
        INSERT INTO pedidos.outbox (id_evento, topic, clave, valor, creado_en)
        VALUES (?::uuid, 'escritura.realizada', ?, '{}', now() - interval '1 hour')""", UUID.randomUUID().toString(), clave);
      try {
        Http.Response refused = await("a write refused").atMost(Duration.ofSeconds(5))
          .until(() -> Http.post(url, token, ORDEN), r -> r.status() == 503);
        assertThat(refused.json().getString("error")).isEqualTo("overloaded");
        assertThat(refused.json().getString("message")).contains("pedidos", "over the bound of 2000 ms");
        // Refused before anything is spent on the request: its token (none here), the Lista de revocación, its body.
        for (String door : List.of(url, pedidos.gatewayUrl() + "/v1/pedidos")) {
          Http.Response sinToken = Http.post(door, null, "{}");
          assertThat(sinToken.status()).as(door + " without a token nor a valid body").isEqualTo(503);
          assertThat(sinToken.json().getString("error")).isEqualTo("overloaded");
          assertThat(sinToken.headers().firstValue("Retry-After")).contains("1");
        }
        assertThat(Http.get(pedidos.managementUrl() + "/metrics", null).body())
          .containsPattern("outbox_oldest_waiting_seconds\\{[^}]*schema=\"pedidos\"[^}]*} 3[0-9]{3}\\.");
      } finally {
        Db.update(cluster, "DELETE FROM pedidos.outbox WHERE clave = ?", clave);
      }
      await("writes accepted again").atMost(Duration.ofSeconds(5))
        .until(() -> Http.post(url, token, ORDEN).status() == 201);
    }
  }
}
