package ccp.etapas;

import ccp.cadena.ResultadoEtapa;
import ccp.platform.config.Settings;
import ccp.platform.db.Migrations;
import ccp.platform.db.PgConfig;
import ccp.platform.db.PgClients;
import ccp.support.Db;
import ccp.support.SharedInfra;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("A stage's batch statement: orders new and already decided in one batch, each its own effect once")
class EfectosPorLoteTest {

  private static Settings settings;
  private static Vertx vertx;
  /** Each stage's client, as its own role: by schema. */
  private static Map<String, SqlClient> sql;

  @BeforeAll
  static void start() {
    settings = SharedInfra.settings();
    vertx = Vertx.vertx();
    sql = new HashMap<>();
    for (String stage : List.of("facturacion", "despacho")) {
      Migrations.migrate(PgConfig.of(settings, stage), settings.flag("demo.seed"), List.of(stage));
      sql.put(stage, PgClients.pipelined(vertx, PgConfig.of(settings, stage)));
    }
  }

  @AfterAll
  static void stop() {
    vertx.close().await();
  }

  @Test
  @DisplayName("Facturación: in one batch a redelivered order keeps its first invoice, a stopped one gets none, each new one gets one")
  void facturacion() {
    mixedBatch(Facturacion.FACTURAR, "facturacion", "facturas", "FACTURACION");
  }

  @Test
  @DisplayName("Validación de despacho: the same for its checks")
  void despacho() {
    mixedBatch(ValidacionDespacho.VALIDAR, "despacho", "validaciones", "DESPACHO");
  }

  private static void mixedBatch(String sentencia, String schema, String tabla, String etapa) {
    String efectos = schema + "." + tabla;
    Efecto.Orden detenida = orden(5);
    Db.update(settings, "INSERT INTO " + schema + ".etapa_procesada (pedido, etapa, resultado, motivo) VALUES (?, ?, 'RECHAZADA', 'cadena detenida')",
      detenida.pedido(), etapa);
    Efecto.Orden decidida = orden(2);
    Map<UUID, Resultado> primera = Efecto.porLote(sql.get(schema), sentencia, List.of(decidida)).await();
    assertThat(primera.get(decidida.pedido())).isEqualTo(new Resultado(ResultadoEtapa.COMPLETADA, null));

    Efecto.Orden nueva1 = orden(1);
    Efecto.Orden nueva2 = orden(3);
    Map<UUID, Resultado> lote = Efecto.porLote(sql.get(schema), sentencia, List.of(nueva1, decidida, detenida, nueva2)).await();
    assertThat(lote).hasSize(4);
    assertThat(lote.get(detenida.pedido())).isEqualTo(new Resultado(ResultadoEtapa.RECHAZADA, "cadena detenida"));
    assertThat(Db.count(settings, "SELECT count(*) FROM " + efectos + " WHERE pedido = ?", detenida.pedido())).isZero();
    for (Efecto.Orden o : List.of(nueva1, decidida, nueva2)) assertThat(lote.get(o.pedido())).isEqualTo(new Resultado(ResultadoEtapa.COMPLETADA, null));
    for (Efecto.Orden o : List.of(decidida, nueva1, nueva2)) {
      assertThat(Db.count(settings, "SELECT count(*) FROM " + efectos + " WHERE pedido = ?", o.pedido())).as("effects of " + o.pedido()).isEqualTo(1);
    }
    assertThat(Db.count(settings, "SELECT unidades FROM " + efectos + " WHERE pedido = ?", nueva2.pedido())).isEqualTo(3);
  }

  @Test
  @DisplayName("a batch of orders decided before reads each one's EtapaProcesada by its key, not the whole history of the stage")
  void aBatchReadsItsOrdersByKey() {
    // Facturación's tables in a schema of their own, with twenty thousand orders decided and described by statistics:
    // where, for the join of the batch with the history, the planner took a scan of all of it.
    String schema = "lote" + UUID.randomUUID().toString().replaceAll("[^a-f]", "");
    Db.update(settings, "CREATE SCHEMA " + schema + " AUTHORIZATION facturacion");
    for (String tabla : List.of("etapa_procesada", "facturas")) {
      Db.update(settings, "CREATE TABLE " + schema + "." + tabla + " (LIKE facturacion." + tabla + " INCLUDING ALL)");
      Db.update(settings, "ALTER TABLE " + schema + "." + tabla + " OWNER TO facturacion");
    }
    Db.update(settings, "INSERT INTO " + schema + ".etapa_procesada (pedido, etapa, resultado)"
      + " SELECT gen_random_uuid(), 'FACTURACION', 'COMPLETADA' FROM generate_series(1, 20000)");
    Db.update(settings, "ANALYZE " + schema + ".etapa_procesada");
    List<String> decididas = Db.strings(settings, "SELECT pedido::text FROM " + schema + ".etapa_procesada LIMIT 8");
    JsonArray lote = new JsonArray();
    for (String pedido : decididas) lote.add(new JsonObject().put("pedido", pedido).put("lineas", new JsonArray()).put("unidades", 1));
    try {
      String explain = "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + Efecto.registroPorLote(schema, "FACTURACION", "facturas");
      JsonObject plan = new JsonArray(sql.get("facturacion").preparedQuery(explain).execute(Tuple.of(lote)).await()
        .iterator().next().getValue(0).toString()).getJsonObject(0).getJsonObject("Plan");
      assertThat(nodos(plan)).as("the batch's plan").contains("Index Scan on etapa_procesada").doesNotContain("Seq Scan on etapa_procesada");
      assertThat(plan.getLong("Shared Hit Blocks") + plan.getLong("Shared Read Blocks")).as("buffers read by a batch of 8").isLessThan(100);
    } finally {
      Db.update(settings, "DROP SCHEMA " + schema + " CASCADE");
    }
  }

  /** Each node of a plan as "type on relation" (or its type alone), depth first. */
  private static List<String> nodos(JsonObject plan) {
    List<String> nodos = new ArrayList<>();
    String relacion = plan.getString("Relation Name");
    nodos.add(plan.getString("Node Type") + (relacion == null ? "" : " on " + relacion));
    for (Object hijo : plan.getJsonArray("Plans", new JsonArray())) nodos.addAll(nodos((JsonObject) hijo));
    return nodos;
  }

  private static Efecto.Orden orden(int cantidad) {
    JsonArray lineas = new JsonArray().add(new JsonObject().put("producto", "P-1").put("cantidad", cantidad));
    return new Efecto.Orden(UUID.randomUUID(), lineas);
  }
}
