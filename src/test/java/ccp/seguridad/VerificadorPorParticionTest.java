package ccp.seguridad;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.platform.kafka.Topics;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import ccp.support.Topic;
import io.vertx.core.json.JsonObject;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Verificador as several consumers of {@code cola.verificador} in the active seguridad process, one per partition of
 * {@code sesion.abierta} ({@code kafka.partitions.security}): each its own readiness check, its own partition, and a
 * vendedor's sessions, keyed by the vendedor, still checked in order by the one member that reads its partition.
 */
@DisplayName("The Verificador, one consumer per partition of sesion.abierta: each vendedor's sessions in order, every alert once")
class VerificadorPorParticionTest {

  @Test
  @DisplayName("two partitions: two members, each ready and with its own partition; first uses at once → the second device's one alert each")
  void dosMiembros() throws Exception {
    Settings settings = SharedInfra.settings(Map.of("kafka.partitions.security", 2));
    // As the broker's operator does before the roles start (BrokerSetup, Strimzi): the shared broker made it with one.
    try (Admin admin = Admin.create(Map.<String, Object>copyOf(Topic.admin(settings)))) {
      int ahora = admin.describeTopics(List.of(Topics.SESION_ABIERTA)).allTopicNames().get(30, TimeUnit.SECONDS)
        .get(Topics.SESION_ABIERTA).partitions().size();
      if (ahora < 2) admin.createPartitions(Map.of(Topics.SESION_ABIERTA, NewPartitions.increaseTo(2))).all().get(30, TimeUnit.SECONDS);
    }
    try (RunningApp app = RunningApp.start(settings, Set.of(Role.GESTOR, Role.SEGURIDAD))) {
      // The consumers are deployed once the process leads, and are ready once the group has assigned their partitions.
      Http.Response ready = await("ready").atMost(Duration.ofSeconds(60))
        .until(() -> Http.get(app.managementUrl() + "/health/ready", null), r -> r.status() == 200);
      assertThat(ready.json().getJsonArray("checks")).extracting(c -> ((JsonObject) c).getString("id"))
        .contains("cola.verificador", "cola.verificador#1");
      try (Admin admin = Admin.create(Map.<String, Object>copyOf(Topic.admin(settings)))) {
        var grupo = admin.describeConsumerGroups(List.of(ConsumidorSesiones.COLA)).all()
          .get(30, TimeUnit.SECONDS).get(ConsumidorSesiones.COLA);
        List<Set<TopicPartition>> asignadas = grupo.members().stream().map(m -> m.assignment().topicPartitions()).toList();
        assertThat(asignadas).as("one partition to each member: %s", grupo).hasSize(2).allSatisfy(p -> assertThat(p).hasSize(1));
      }

      TestTokens tokens = TestTokens.devIssuer(app.app().vertx());
      String area = tokens.valid(Db.newActor(settings, "SEGURIDAD"), "SEGURIDAD");
      List<String> vendedores = IntStream.range(0, 24).mapToObj(i -> Db.newActor(settings, "VENDEDOR")).toList();
      ExecutorService clientes = Executors.newFixedThreadPool(vendedores.size());
      try {
        for (String huella : List.of("primer-dispositivo", "segundo-dispositivo")) {
          List<Future<Http.Response>> abiertas = vendedores.stream().map(v -> clientes.submit(() ->
            Http.post(app.gestorUrl() + "/v1/sesiones", tokens.valid(v, "VENDEDOR"), new JsonObject().put("huella", huella).encode()))).toList();
          for (Future<Http.Response> abierta : abiertas) assertThat(abierta.get(30, TimeUnit.SECONDS).status()).isEqualTo(201);
        }
      } finally {
        clientes.shutdownNow();
      }

      Set<String> nuestros = Set.copyOf(vendedores);
      assertThat(Topic.read(settings, Topics.SESION_ABIERTA, r -> nuestros.contains(r.key())).stream()
        .map(ConsumerRecord::partition).collect(Collectors.toSet())).as("the vendedores' sessions on both partitions")
        .containsExactlyInAnyOrder(0, 1);
      for (String vendedor : vendedores) {
        List<JsonObject> alertas = await("the alert of " + vendedor).atMost(Duration.ofSeconds(15)).during(Duration.ofMillis(300))
          .until(() -> Http.get(app.seguridadUrl() + "/v1/alertas?actor=" + vendedor, area).json().getJsonArray("alertas")
            .stream().map(JsonObject.class::cast).toList(), a -> a.size() == 1);
        assertThat(alertas.get(0).getJsonObject("detalle").getString("huella_presentada")).isEqualTo("segundo-dispositivo");
      }
      assertThat(Db.strings(settings, "SELECT DISTINCT huella || '|' || origen FROM seguridad.registro_dispositivos"
        + " WHERE vendedor = ANY (string_to_array(?, ','))", String.join(",", vendedores)))
        .containsExactly("primer-dispositivo|PRIMER_USO");
    }
  }
}
