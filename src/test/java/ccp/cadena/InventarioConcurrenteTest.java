package ccp.cadena;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.platform.kafka.Topics;
import ccp.support.Db;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.Topic;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("Inventario across processes: one product, stock 1,000, 5,000 reservations of 1 from two processes")
class InventarioConcurrenteTest {

  private static final int STOCK = 1_000;
  private static final int RESERVAS = 5_000;

  /**
   * Both ways the stage can run, in the same run: combining (the default) first, so that a warmer JVM can only
   * favour one statement per order. The rates are printed, not asserted (a shared machine is no stopwatch).
   */
  @Test
  @DisplayName("combining and one statement per order: exactly 1,000 approved, stock 0, never negative; the other 4,000 rejected")
  void neverOversold() throws Exception {
    long combinando = reservar(256);
    long unaPorPedido = reservar(1);
    System.out.printf("Hot product, %,d reservations by two processes: combining %,.0f/s, one statement per order %,.0f/s (x%.1f)%n",
      RESERVAS, rate(combinando), rate(unaPorPedido), (double) unaPorPedido / combinando);
  }

  private static double rate(long nanos) {
    return RESERVAS * 1e9 / nanos;
  }

  /** Runs the 5,000 reservations through two processes with {@code inventario.lote-max}; answers the nanoseconds. */
  private static long reservar(int loteMax) throws Exception {
    Settings cluster = SharedInfra.settings(Map.of("inventario.lote-max", loteMax));
    String producto = "HOT-" + UUID.randomUUID().toString().substring(0, 8);
    String lote = UUID.randomUUID().toString().substring(0, 8);
    long elapsed;
    try (RunningApp uno = RunningApp.start(cluster, EnumSet.of(Role.INVENTARIO));
         // Its own port for the HiloPeticion, as a second pod's would be its own address.
         RunningApp dos = RunningApp.start(SharedInfra.process(cluster, Map.of("inventario.port", SharedInfra.freePort())),
           EnumSet.of(Role.INVENTARIO))) {
      Db.update(cluster, "INSERT INTO inventario.stock (producto, disponible) VALUES (?, ?)", producto, STOCK);
      long started = System.nanoTime();
      Map<String, Object> config = new HashMap<>(Topic.as(cluster, Role.CADENA));
      config.put("linger.ms", "5");
      try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
        for (int i = 0; i < RESERVAS; i++) {
          String pedido = UUID.nameUUIDFromBytes((lote + i).getBytes(java.nio.charset.StandardCharsets.UTF_8)).toString();
          String comando = new JsonObject().put("specversion", "1.0").put("id", UUID.randomUUID().toString())
            .put("type", "ccp.etapa.ejecutar").put("source", "/test").put("time", Instant.now().toString()).put("subject", pedido)
            .put("data", new JsonObject().put("pedido", pedido).put("etapa", "INVENTARIO").put("intento", 1)
              .put("lineas", new JsonArray().add(new JsonObject().put("producto", producto).put("cantidad", 1))))
            .encode();
          producer.send(new ProducerRecord<>(Topics.ETAPA_EJECUTAR, pedido, comando));
        }
      }
      await(RESERVAS + " handled (lote-max " + loteMax + ")").atMost(Duration.ofSeconds(120))
        .until(() -> Db.count(cluster, "SELECT (SELECT count(*) FROM inventario.reservas WHERE producto = ?)"
            + " + (SELECT count(*) FROM inventario.etapa_procesada WHERE resultado = 'RECHAZADA' AND motivo = ?)", producto, "sin stock de " + producto),
          n -> n >= RESERVAS);
      elapsed = System.nanoTime() - started;
    }
    assertThat(Db.count(cluster, "SELECT disponible FROM inventario.stock WHERE producto = ?", producto)).isZero();
    assertThat(Db.count(cluster, "SELECT coalesce(sum(cantidad), 0) FROM inventario.reservas WHERE producto = ?", producto)).isEqualTo(STOCK);
    assertThat(Db.count(cluster, "SELECT count(*) FROM inventario.etapa_procesada WHERE resultado = 'RECHAZADA' AND motivo = ?",
      "sin stock de " + producto)).isEqualTo(RESERVAS - STOCK);
    return elapsed;
  }
}
