package ccp.cadena;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.support.Api;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * DESIGN.md §5 "read an order and the state of its chain", and the view's "Responsable del pedido escalado consulta la
 * Bandeja y Logística": through a gateway of its own process, which forwards to Pedidos and the cadena role over HTTP
 * as in a deployment.
 */
@DisplayName("An order reads with its chain, its invoice and the chain's end; Logística's finished orders are listed")
class PedidoConSuCadenaTest {

  private static final Duration CADENA = Duration.ofSeconds(30);

  private static Settings cluster;
  private static RunningApp servicios;
  private static RunningApp puerta;
  private static Api api;

  @BeforeAll
  static void start() throws Exception {
    cluster = SharedInfra.settings();
    servicios = RunningApp.start(cluster, EnumSet.complementOf(EnumSet.of(Role.GATEWAY)));
    puerta = RunningApp.start(SharedInfra.process(cluster, Map.of()), EnumSet.of(Role.GATEWAY));
    api = new Api(puerta.gatewayUrl(), TestTokens.devIssuer(servicios.app().vertx()));
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (puerta != null) puerta.close();
    } finally {
      if (servicios != null) servicios.close();
    }
  }

  @Test
  @DisplayName("a finished order: every stage COMPLETADA with its attempt and times in the chain's order, its invoice, and LISTO, which is where it stands")
  void listo() {
    String vendedor = Db.newActor(cluster, "VENDEDOR");
    String pedido = pedir(vendedor, producto(100), 3);

    JsonObject leido = await("the chain to finish").atMost(CADENA).until(() -> api.leerPedido(vendedor, pedido),
      p -> "LISTO".equals(estadoCadena(p)));

    assertThat(leido.getString("situacion")).isEqualTo("LISTO");
    assertThat(leido.getString("estado")).as("Pedidos' own record: not annulled").isEqualTo("REGISTRADO");
    JsonObject cadena = leido.getJsonObject("cadena");
    List<JsonObject> etapas = etapas(cadena);
    assertThat(etapas).extracting(e -> e.getString("etapa") + " " + e.getString("estado") + " " + e.getInteger("intento"))
      .containsExactly("FACTURACION COMPLETADA 1", "INVENTARIO COMPLETADA 1", "DESPACHO COMPLETADA 1");
    Instant antes = instante(cadena, "iniciada_en");
    for (JsonObject etapa : etapas) {
      assertThat(etapa.getString("reintento_desde")).as(etapa.getString("etapa")).isNull();
      Instant enCurso = instante(etapa, "en_curso_desde");
      Instant hecha = instante(etapa, "actualizada_en");
      assertThat(enCurso).as(etapa.getString("etapa") + " started after the one before it ended").isAfterOrEqualTo(antes);
      assertThat(hecha).as(etapa.getString("etapa") + " done after it started").isAfterOrEqualTo(enCurso);
      antes = hecha;
    }
    assertThat(instante(cadena, "terminada_en")).isAfterOrEqualTo(antes);
    assertThat(leido.getJsonObject("factura").getInteger("unidades")).isEqualTo(3);
    assertThat(instante(leido.getJsonObject("factura"), "emitida_en")).isBeforeOrEqualTo(instante(etapas.get(0), "actualizada_en"));
    assertThat(leido.getValue("nota_credito")).isNull();

    for (String perfil : List.of("OPERADOR", "CONSULTA", "SEGURIDAD")) {
      assertThat(estadoCadena(api.leerPedido(Db.newActor(cluster, perfil), pedido))).as(perfil).isEqualTo("LISTO");
    }
  }

  @Test
  @DisplayName("not enough stock: RECHAZADO, the stage that refused it RECHAZADA, the next never started, the invoice and its credit note")
  void rechazado() {
    String vendedor = Db.newActor(cluster, "VENDEDOR");
    String pedido = pedir(vendedor, producto(1), 2);

    JsonObject leido = await("the rejection, compensated").atMost(CADENA).until(() -> api.leerPedido(vendedor, pedido),
      p -> "RECHAZADO".equals(estadoCadena(p)) && p.getValue("nota_credito") != null);

    assertThat(leido.getString("situacion")).isEqualTo("RECHAZADO");
    List<JsonObject> etapas = etapas(leido.getJsonObject("cadena"));
    assertThat(etapas).extracting(e -> e.getString("etapa") + " " + e.getString("estado") + " " + e.getInteger("intento"))
      .containsExactly("FACTURACION COMPLETADA 1", "INVENTARIO RECHAZADA 1", "DESPACHO PENDIENTE 0");
    assertThat(etapas.get(2).getString("en_curso_desde")).isNull();
    assertThat(leido.getJsonObject("cadena").getString("terminada_en")).isNotNull();
    assertThat(leido.getJsonObject("factura").getInteger("unidades")).isEqualTo(2);
    assertThat(leido.getJsonObject("nota_credito").getString("motivo")).isEqualTo("pedido rechazado");
  }

  @Test
  @DisplayName("an order the Reacción annulled: ANULADO, its chain DETENIDO, an invoice issued meanwhile compensated")
  void detenido() {
    String vendedor = Db.newActor(cluster, "VENDEDOR");
    String pedido = pedir(vendedor, producto(100), 1);
    anular(pedido);

    JsonObject leido = await("the chain stopped").atMost(CADENA).until(() -> api.leerPedido(vendedor, pedido),
      p -> "DETENIDO".equals(estadoCadena(p)) && (p.getValue("factura") == null || p.getValue("nota_credito") != null));

    assertThat(leido.getString("estado")).isEqualTo("ANULADO");
    assertThat(leido.getString("situacion")).isEqualTo("ANULADO");
    assertThat(leido.getJsonObject("cadena").getString("terminada_en")).isNotNull();
  }

  @Test
  @DisplayName("a vendedor cannot read another vendedor's order (403); nobody reads an order that does not exist (404)")
  void soloSusPedidos() {
    String vendedor = Db.newActor(cluster, "VENDEDOR");
    String pedido = pedir(vendedor, producto(100), 1);

    Http.Response otro = Http.get(puerta.gatewayUrl() + "/v1/pedidos/" + pedido, api.token(Db.newActor(cluster, "VENDEDOR")));
    assertThat(otro.status()).as(otro.body()).isEqualTo(403);
    assertThat(otro.json().getString("error")).isEqualTo("forbidden");
    assertThat(otro.body()).doesNotContain("FACTURACION");
    assertThat(Http.get(puerta.gatewayUrl() + "/v1/pedidos/" + UUID.randomUUID(), api.token(vendedor)).status()).isEqualTo(404);
  }

  @Test
  @DisplayName("Logística's list, page by page: the finished order is there; the rejected, the annulled and the one annulled after it was ready are not")
  void pedidosListos() {
    String vendedor = Db.newActor(cluster, "VENDEDOR");
    String listo = pedir(vendedor, producto(100), 1);
    String otroListo = pedir(vendedor, producto(100), 2);
    String rechazado = pedir(vendedor, producto(0), 1);
    String anuladoListo = pedir(vendedor, producto(100), 1);
    await("three chains finished, one rejected").atMost(CADENA).until(() ->
      Stream.of(listo, otroListo, rechazado, anuladoListo).map(p -> estadoCadena(api.leerPedido(vendedor, p))).toList(),
      List.of("LISTO", "LISTO", "RECHAZADO", "LISTO")::equals);
    await("Logística recorded the three").atMost(CADENA).until(() -> Db.count(cluster,
      "SELECT count(*) FROM cadena.pedidos_listos WHERE pedido IN (?::uuid, ?::uuid, ?::uuid)", listo, otroListo, anuladoListo) == 3);
    anular(anuladoListo);
    await("the ready order stopped").atMost(CADENA).until(() -> estadoCadena(api.leerPedido(vendedor, anuladoListo)), "DETENIDO"::equals);

    String operador = Db.newActor(cluster, "OPERADOR");
    List<JsonObject> todos = new ArrayList<>();
    String desde = null;
    do {
      JsonObject pagina = listos(operador, desde, 200);
      pagina.getJsonArray("pedidos").forEach(p -> todos.add((JsonObject) p));
      desde = pagina.getString("siguiente");
    } while (desde != null);

    List<String> ids = todos.stream().map(p -> p.getString("pedido")).toList();
    assertThat(ids).contains(listo, otroListo).doesNotContain(rechazado, anuladoListo).doesNotHaveDuplicates();
    JsonObject nuestro = todos.stream().filter(p -> listo.equals(p.getString("pedido"))).findFirst().orElseThrow();
    assertThat(nuestro.getString("actor")).isEqualTo(vendedor);
    assertThat(nuestro.getJsonArray("lineas").getJsonObject(0).getInteger("cantidad")).isEqualTo(1);
    assertThat(nuestro.getString("terminada_en")).isNotNull();
    List<Instant> llegadas = todos.stream().map(p -> instante(p, "recibido_en")).toList();
    assertThat(llegadas).as("in the order Logística recorded them").isSorted();

    JsonObject primera = listos(operador, null, 1);
    JsonObject segunda = listos(operador, primera.getString("siguiente"), 1);
    assertThat(primera.getJsonArray("pedidos")).hasSize(1);
    assertThat(segunda.getJsonArray("pedidos").getJsonObject(0).getString("pedido")).isEqualTo(ids.get(1));
    assertThat(primera.getJsonArray("pedidos").getJsonObject(0).getString("pedido")).isEqualTo(ids.get(0));
  }

  @Test
  @DisplayName("Logística's list: OPERADOR only (403 for a vendedor); a bad limite or desde is a 400 naming it, with nothing listed")
  void pedidosListosValidados() {
    String operador = Db.newActor(cluster, "OPERADOR");
    String url = puerta.gatewayUrl() + "/v1/logistica/pedidos-listos";
    assertThat(Http.get(url, api.token(Db.newActor(cluster, "VENDEDOR"))).status()).isEqualTo(403);

    String noCursor = Base64.getUrlEncoder().encodeToString("ayer|ninguno".getBytes(StandardCharsets.UTF_8));
    Map<String, String> malos = Map.of("limite=0", "limite", "limite=201", "limite", "limite=abc", "limite", "limite=-1", "limite",
      "limite=", "limite", "desde=%25%25%25", "desde", "desde=" + URLEncoder.encode(noCursor, StandardCharsets.UTF_8), "desde");
    malos.forEach((query, campo) -> {
      Http.Response r = Http.get(url + "?" + query, api.token(operador));
      assertThat(r.status()).as(query + ": " + r.body()).isEqualTo(400);
      assertThat(r.json().getString("error")).as(query).isEqualTo("invalid_field");
      assertThat(r.json().getString("field")).as(query).isEqualTo(campo);
    });
  }

  private static JsonObject listos(String operador, String desde, int limite) {
    String query = "?limite=" + limite + (desde == null ? "" : "&desde=" + URLEncoder.encode(desde, StandardCharsets.UTF_8));
    Http.Response r = Http.get(puerta.gatewayUrl() + "/v1/logistica/pedidos-listos" + query, api.token(operador));
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json();
  }

  private static String producto(int disponible) {
    String producto = "L-" + UUID.randomUUID().toString().substring(0, 12);
    Db.update(cluster, "INSERT INTO inventario.stock (producto, disponible) VALUES (?, ?)", producto, disponible);
    return producto;
  }

  private static String pedir(String vendedor, String producto, int cantidad) {
    Http.Response r = api.crearPedido(vendedor, Api.pedido("T-1", producto, cantidad));
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json().getString("pedido");
  }

  /** The Reacción's B11, as it calls Pedidos. */
  private static void anular(String pedido) {
    Http.Response r = Http.post(servicios.pedidosUrl() + "/interno/pedidos/" + pedido + "/anulacion",
      TestTokens.peer(servicios.app().vertx(), "seguridad", "pedidos"), "{\"motivo\":\"prueba: pedido anulado\"}");
    assertThat(r.status()).as(r.body()).isEqualTo(200);
  }

  private static String estadoCadena(JsonObject pedido) {
    JsonObject cadena = pedido.getJsonObject("cadena");
    return cadena == null ? "" : cadena.getString("estado");
  }

  private static List<JsonObject> etapas(JsonObject cadena) {
    JsonArray etapas = cadena.getJsonArray("etapas");
    return etapas.stream().map(JsonObject.class::cast).toList();
  }

  private static Instant instante(JsonObject json, String campo) {
    assertThat(json.getString(campo)).as(campo).isNotNull();
    return Instant.parse(json.getString(campo));
  }
}
