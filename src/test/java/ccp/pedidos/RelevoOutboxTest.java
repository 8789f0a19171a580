package ccp.pedidos;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.platform.kafka.Topics;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import ccp.support.Topic;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("RelevoOutbox: the pedidos process stopped mid-stream loses no committed order's event")
class RelevoOutboxTest {

  @Test
  @DisplayName("every order answered 201 before the stop is on escritura.realizada after the next process relays")
  void everyCommittedOrderIsPublished() throws Exception {
    Settings cluster = SharedInfra.settings(Map.of("outbox.claim-timeout-ms", 500, "outbox.batch-size", 20));
    String vendedor = Db.newActor(cluster, "VENDEDOR");
    List<String> creados = Collections.synchronizedList(new ArrayList<>());
    RunningApp primera = RunningApp.start(cluster, Set.of(Role.PEDIDOS));
    String token = TestTokens.devIssuer(primera.app().vertx()).valid(vendedor, "VENDEDOR");

    AtomicBoolean parar = new AtomicBoolean();
    ExecutorService clientes = Executors.newFixedThreadPool(4);
    for (int c = 0; c < 4; c++) {
      clientes.submit(() -> {
        while (!parar.get()) {
          try {
            Http.Response r = Http.post(primera.pedidosUrl() + "/v1/pedidos", token, "{\"tendero\":\"T-1\",\"lineas\":[{\"producto\":\"P-1\",\"cantidad\":1}]}");
            if (r.status() == 201) creados.add(r.json().getString("pedido"));
          } catch (IllegalStateException stopped) {
            return;
          }
        }
      });
    }
    await("200 orders").atMost(Duration.ofSeconds(20)).until(creados::size, n -> n >= 200);
    primera.close();
    parar.set(true);
    clientes.shutdown();
    assertThat(clientes.awaitTermination(20, TimeUnit.SECONDS)).isTrue();
    List<String> aceptados = List.copyOf(creados);
    long pendientes = Db.count(cluster, "SELECT count(*) FROM pedidos.outbox o JOIN pedidos.pedidos p ON o.clave = p.id::text "
      + "WHERE p.actor = ? AND o.enviado_en IS NULL", vendedor);

    try (RunningApp segunda = RunningApp.start(SharedInfra.process(cluster, Map.of()), Set.of(Role.PEDIDOS))) {
      await("the outbox drained").atMost(Duration.ofSeconds(20))
        .until(() -> Db.count(cluster, "SELECT count(*) FROM pedidos.outbox o JOIN pedidos.pedidos p "
          + "ON o.clave = p.id::text WHERE p.actor = ? AND o.enviado_en IS NULL", vendedor), n -> n == 0);
      var publicados = Topic.read(cluster, Topics.ESCRITURA_REALIZADA, r -> r.value().contains(vendedor)).stream()
        .map(r -> r.key()).collect(java.util.stream.Collectors.toSet());
      assertThat(publicados).containsAll(aceptados);
      System.out.printf("orders accepted %d, still unpublished when the first process stopped %d%n", aceptados.size(), pendientes);
    }
  }
}
