package ccp.seguridad;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.support.Api;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("Lista de revocación invariant: after the revoke step is acknowledged, no gateway accepts a write of that actor")
class InvarianteRevocacionTest {

  private record Intento(Instant inicio, int status, String puerta) {}

  @Test
  @DisplayName("two gateway processes, a read-only client writing as fast as it can through both")
  void noWriteAcceptedAfterRevoke() throws Exception {
    Settings cluster = SharedInfra.settings();
    try (RunningApp servicios = RunningApp.start(cluster, Set.of(Role.GESTOR, Role.SEGURIDAD, Role.PEDIDOS, Role.CADENA));
         RunningApp puerta1 = RunningApp.start(SharedInfra.process(cluster, Map.of()), Set.of(Role.GATEWAY));
         RunningApp puerta2 = RunningApp.start(SharedInfra.process(cluster, Map.of("gateway.port", SharedInfra.freePort())), Set.of(Role.GATEWAY))) {
      TestTokens tokens = TestTokens.devIssuer(servicios.app().vertx());
      String consulta = Db.newActor(cluster, "CONSULTA");
      String token = tokens.valid(consulta, "CONSULTA");
      List<String> puertas = List.of(puerta1.gatewayUrl(), puerta2.gatewayUrl());

      Queue<Intento> intentos = new ConcurrentLinkedQueue<>();
      AtomicBoolean parar = new AtomicBoolean();
      ExecutorService clientes = Executors.newFixedThreadPool(4);
      for (int c = 0; c < 4; c++) {
        String puerta = puertas.get(c % 2);
        clientes.submit(() -> {
          while (!parar.get()) {
            Instant inicio = Instant.now();
            int status = Http.post(puerta + "/v1/pedidos", token, Api.pedido("T-1", "P-1", 1)).status();
            intentos.add(new Intento(inicio, status, puerta));
          }
        });
      }
      Instant revocada = revocacion(cluster, consulta);
      await("no write accepted after the revoke, for a while").atMost(Duration.ofSeconds(10)).during(Duration.ofMillis(1_500))
        .untilAsserted(() -> assertRefused(despues(intentos, revocada)));
      parar.set(true);
      clientes.shutdown();
      assertThat(clientes.awaitTermination(20, TimeUnit.SECONDS)).isTrue();

      List<Intento> despues = despues(intentos, revocada);
      assertThat(intentos).anyMatch(i -> i.status() == 201);
      assertThat(despues).as("writes started after the revoke was acknowledged").isNotEmpty();
      assertRefused(despues);
      assertThat(despues).extracting(Intento::puerta).containsAll(puertas);
    }
  }

  /** The reaction records revocada_en right after the revoke statement returned: the acknowledgement. */
  private static Instant revocacion(Settings cluster, String actor) {
    List<String> at = await("the actor revoked").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
      .until(() -> Db.strings(cluster,
        "SELECT to_char(revocada_en AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') FROM seguridad.registro_reacciones "
          + "WHERE actor = ? AND revocada_en IS NOT NULL", actor), list -> !list.isEmpty());
    return OffsetDateTime.parse(at.get(0)).toInstant();
  }

  private static List<Intento> despues(Queue<Intento> intentos, Instant revocada) {
    return intentos.stream().filter(i -> i.inicio().isAfter(revocada)).toList();
  }

  private static void assertRefused(List<Intento> intentos) {
    assertThat(intentos).allSatisfy(i -> assertThat(i.status()).as(i.toString()).isEqualTo(403));
  }
}
