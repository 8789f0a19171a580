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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

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

  private static Efecto.Orden orden(int cantidad) {
    JsonArray lineas = new JsonArray().add(new JsonObject().put("producto", "P-1").put("cantidad", cantidad));
    return new Efecto.Orden(UUID.randomUUID(), lineas);
  }
}
