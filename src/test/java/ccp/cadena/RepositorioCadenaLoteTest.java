package ccp.cadena;

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

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("The Coordinador's batch statements: new and known chains, advances and ends, in one statement each")
class RepositorioCadenaLoteTest {

  private static final long PLAZO_MS = 25_000;

  private static Settings settings;
  private static Vertx vertx;
  private static RepositorioCadena cadenas;

  @BeforeAll
  static void start() {
    settings = SharedInfra.settings();
    Migrations.migrate(PgConfig.of(settings, "cadena"), settings.flag("demo.seed"), List.of("cadena"));
    vertx = Vertx.vertx();
    SqlClient sql = PgClients.pipelined(vertx, PgConfig.of(settings, "cadena"));
    cadenas = new RepositorioCadena(sql);
  }

  @AfterAll
  static void stop() {
    vertx.close().await();
  }

  @Test
  @DisplayName("one INICIAR starts the new chains and answers a known chain's stage in flight, writing its rows once")
  void iniciarMixto() {
    UUID conocida = UUID.randomUUID();
    iniciar(conocida);
    avanzar(new RepositorioCadena.Confirmacion(conocida, Etapa.FACTURACION, Etapa.INVENTARIO));
    UUID nueva = UUID.randomUUID();

    Map<UUID, List<RepositorioCadena.EnCurso>> enCurso = cadenas.iniciar(List.of(inicio(nueva), inicio(conocida)), PLAZO_MS).await();

    assertThat(enCurso.get(nueva)).containsExactly(new RepositorioCadena.EnCurso(Etapa.FACTURACION, 1));
    assertThat(enCurso.get(conocida)).containsExactly(new RepositorioCadena.EnCurso(Etapa.INVENTARIO, 1));
    assertThat(Db.count(settings, "SELECT count(*) FROM cadena.cadena_etapa WHERE pedido = ?", conocida)).isEqualTo(3);
    assertThat(estado(nueva, "FACTURACION")).isEqualTo("EN_CURSO");
  }

  @Test
  @DisplayName("one AVANZAR ends one chain, advances two others and answers nothing for a confirmation already counted")
  void avanzarMixto() {
    UUID ultima = UUID.randomUUID();
    UUID primera = UUID.randomUUID();
    UUID segunda = UUID.randomUUID();
    UUID repetida = UUID.randomUUID();
    for (UUID p : List.of(ultima, primera, segunda, repetida)) iniciar(p);
    avanzar(new RepositorioCadena.Confirmacion(ultima, Etapa.FACTURACION, Etapa.INVENTARIO));
    avanzar(new RepositorioCadena.Confirmacion(ultima, Etapa.INVENTARIO, Etapa.DESPACHO));
    avanzar(new RepositorioCadena.Confirmacion(segunda, Etapa.FACTURACION, Etapa.INVENTARIO));
    avanzar(new RepositorioCadena.Confirmacion(repetida, Etapa.FACTURACION, Etapa.INVENTARIO));

    Map<UUID, RepositorioCadena.Avance> avances = cadenas.avanzar(List.of(
      new RepositorioCadena.Confirmacion(ultima, Etapa.DESPACHO, null),
      new RepositorioCadena.Confirmacion(primera, Etapa.FACTURACION, Etapa.INVENTARIO),
      new RepositorioCadena.Confirmacion(repetida, Etapa.FACTURACION, Etapa.INVENTARIO),
      new RepositorioCadena.Confirmacion(segunda, Etapa.INVENTARIO, Etapa.DESPACHO)), PLAZO_MS).await();

    assertThat(avances).containsOnlyKeys(ultima, primera, segunda);
    assertThat(avances.get(ultima).iniciada()).isNotNull();
    assertThat(avances.get(ultima).antes()).isEqualTo(EstadoEtapa.EN_CURSO);
    assertThat(avances.get(primera).intento()).isEqualTo(1);
    assertThat(avances.get(primera).lineas()).isEqualTo(lineas(primera));
    assertThat(avances.get(segunda).lineas()).isEqualTo(lineas(segunda));
    assertThat(Db.strings(settings, "SELECT estado FROM cadena.cadenas WHERE pedido = ?", ultima)).containsExactly("LISTO");
    assertThat(estado(primera, "INVENTARIO")).isEqualTo("EN_CURSO");
    assertThat(estado(segunda, "DESPACHO")).isEqualTo("EN_CURSO");
    assertThat(estado(repetida, "INVENTARIO")).isEqualTo("EN_CURSO");
    assertThat(Db.strings(settings, "SELECT estado FROM cadena.cadenas WHERE pedido = ANY (?)",
      (Object) new UUID[] {primera, segunda, repetida})).containsOnly("EN_CURSO");
  }

  private static void iniciar(UUID pedido) {
    cadenas.iniciar(List.of(inicio(pedido)), PLAZO_MS).await();
  }

  private static void avanzar(RepositorioCadena.Confirmacion confirmacion) {
    assertThat(cadenas.avanzar(List.of(confirmacion), PLAZO_MS).await()).containsKey(confirmacion.pedido());
  }

  private static RepositorioCadena.Inicio inicio(UUID pedido) {
    return new RepositorioCadena.Inicio(pedido, "vendedor-1", lineas(pedido));
  }

  /** Lines that differ per order, so that an answer joined to the wrong order shows. */
  private static JsonArray lineas(UUID pedido) {
    return new JsonArray().add(new JsonObject().put("producto", "P-" + pedido.toString().substring(0, 8)).put("cantidad", 1));
  }

  private static String estado(UUID pedido, String etapa) {
    return Db.strings(settings, "SELECT estado FROM cadena.cadena_etapa WHERE pedido = ? AND etapa = ?", pedido, etapa).get(0);
  }
}
