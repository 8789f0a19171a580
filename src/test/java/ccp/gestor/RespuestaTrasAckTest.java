package ccp.gestor;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventPublisher;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.KafkaConfig;
import ccp.platform.kafka.Topics;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import ccp.support.Topic;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A3 answers after the broker's acknowledgement, where the view says "responde al usuario sin esperar": the stronger
 * choice (a 201 is a session the Verificador will see). Its cost is the acknowledgement's time, printed here beside the
 * whole answer's, one request at a time (docs/performance.md; a shared machine is no stopwatch, so nothing is asserted
 * of the figures).
 */
@DisplayName("A3: the Gestor answers a session once the broker has it")
class RespuestaTrasAckTest {

  private static final Logger LOG = LoggerFactory.getLogger(RespuestaTrasAckTest.class);
  private static final int CALENTAR = 100;
  private static final int MEDIDAS = 400;

  @Test
  @DisplayName("every answered session is already on sesion.abierta; the answer's and the acknowledgement's p50/p99 printed")
  void respondeTrasAck() throws Exception {
    Settings settings = SharedInfra.settings();
    try (RunningApp gestor = RunningApp.start(settings, Set.of(Role.GESTOR))) {
      String vendedor = Db.newActor(settings, "VENDEDOR");
      String token = TestTokens.devIssuer(gestor.app().vertx()).valid(vendedor, "VENDEDOR");
      List<String> sesiones = new ArrayList<>();
      long[] respuesta = new long[MEDIDAS];
      for (int i = 0; i < CALENTAR + MEDIDAS; i++) {
        long empezo = System.nanoTime();
        Http.Response r = Http.post(gestor.gestorUrl() + "/v1/sesiones", token, "{\"huella\":\"casa-ack\"}");
        if (i >= CALENTAR) respuesta[i - CALENTAR] = System.nanoTime() - empezo;
        assertThat(r.status()).isEqualTo(201);
        sesiones.add(r.json().getString("sesion"));
      }
      Set<String> publicadas = Topic.read(settings, Topics.SESION_ABIERTA, rec -> vendedor.equals(rec.key())).stream()
        .map(rec -> new JsonObject(rec.value()).getString("id")).collect(Collectors.toSet());
      assertThat(publicadas).as("every session answered 201 is on the topic").containsAll(sesiones);

      long[] ack = new long[MEDIDAS];
      EventPublisher publisher = EventPublisher.create(gestor.app().vertx(), KafkaConfig.of(settings, Role.GESTOR.id()));
      try {
        for (int i = 0; i < CALENTAR + MEDIDAS; i++) {
          String sesion = UUID.randomUUID().toString();
          Envelope event = new Envelope(sesion, EventTypes.SESION_ABIERTA, "/gestor", Instant.now(), vendedor, new JsonObject()
            .put("sesion", sesion).put("vendedor", vendedor).put("huella", "casa-ack").put("t0", Instant.now().toString()));
          long empezo = System.nanoTime();
          publisher.publish(Topics.SESION_ABIERTA, vendedor, event).await();
          if (i >= CALENTAR) ack[i - CALENTAR] = System.nanoTime() - empezo;
        }
      } finally {
        publisher.close().await();
      }
      LOG.info("A3, one request at a time ({} each): session POST p50 {} ms, p99 {} ms; the broker's acknowledgement alone "
        + "p50 {} ms, p99 {} ms", MEDIDAS, ms(respuesta, 50), ms(respuesta, 99), ms(ack, 50), ms(ack, 99));
    }
  }

  private static String ms(long[] nanos, int percentil) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return String.format("%.2f", sorted[Math.min(sorted.length - 1, sorted.length * percentil / 100)] / 1e6);
  }
}
