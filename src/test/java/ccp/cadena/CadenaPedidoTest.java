package ccp.cadena;

import ccp.app.Role;
import ccp.platform.kafka.Topics;
import ccp.support.Api;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import ccp.support.Topic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("DG-CON-003 steps 1–14: Facturación → Inventario → Validación de despacho → pedido.listo, each effect once")
class CadenaPedidoTest {

  private static RunningApp app;
  private static Api api;

  @BeforeAll
  static void start() throws Exception {
    app = RunningApp.start(SharedInfra.settings(), EnumSet.allOf(Role.class));
    api = new Api(app.gatewayUrl(), TestTokens.devIssuer(app.app().vertx()));
  }

  @AfterAll
  static void stop() throws Exception {
    app.close();
  }

  @Test
  @DisplayName("happy path: three stages in order, pedido.listo recorded by Logística, one invoice, one reservation, one dispatch check")
  void happyPath() {
    String producto = producto(100);
    String pedido = pedir(producto, 3);

    await("the chain to finish").atMost(Duration.ofSeconds(20)).until(() -> estadoCadena(pedido), "LISTO"::equals);
    assertThat(Db.strings(app.settings(), "SELECT etapa || ' ' || estado FROM cadena.cadena_etapa WHERE pedido = ?::uuid ORDER BY orden", pedido))
      .containsExactly("FACTURACION COMPLETADA", "INVENTARIO COMPLETADA", "DESPACHO COMPLETADA");
    await("Logística's record").atMost(Duration.ofSeconds(10)).until(() -> cuenta("cadena.pedidos_listos", pedido), n -> n == 1);
    assertThat(cuenta("facturacion.facturas", pedido)).isEqualTo(1);
    assertThat(cuenta("inventario.reservas", pedido)).isEqualTo(1);
    assertThat(cuenta("despacho.validaciones", pedido)).isEqualTo(1);
    assertThat(stock(producto)).isEqualTo(97);
  }

  @Test
  @DisplayName("every command and confirmation delivered again: still one effect of each, stock taken once")
  void redeliveriesHaveOneEffect() {
    String producto = producto(100);
    String pedido = pedir(producto, 5);
    await("the chain to finish").atMost(Duration.ofSeconds(20)).until(() -> estadoCadena(pedido), "LISTO"::equals);
    await("Logística's record").atMost(Duration.ofSeconds(10)).until(() -> cuenta("cadena.pedidos_listos", pedido), n -> n == 1);

    List<ConsumerRecord<String, String>> comandos = Topic.read(app.settings(), Topics.ETAPA_EJECUTAR, r -> pedido.equals(r.key()));
    List<ConsumerRecord<String, String>> confirmaciones = Topic.read(app.settings(), Topics.ETAPA_COMPLETADA, r -> pedido.equals(r.key()));
    assertThat(comandos).hasSize(3);
    assertThat(confirmaciones).hasSize(3);
    for (var r : comandos) Topic.send(app.settings(), Topics.ETAPA_EJECUTAR, r.key(), r.value());
    for (var r : confirmaciones) Topic.send(app.settings(), Topics.ETAPA_COMPLETADA, r.key(), r.value());
    Topic.send(app.settings(), Topics.PEDIDO_LISTO, pedido,
      Topic.read(app.settings(), Topics.PEDIDO_LISTO, r -> pedido.equals(r.key())).get(0).value());

    // Each redelivered command is re-confirmed: once those are out, every copy was handled.
    await("the re-confirmations").atMost(Duration.ofSeconds(20))
      .until(() -> Topic.read(app.settings(), Topics.ETAPA_COMPLETADA, r -> pedido.equals(r.key())).size(), n -> n >= 6);
    await("pedido.listo handled again").atMost(Duration.ofSeconds(10))
      .until(() -> Topic.read(app.settings(), Topics.PEDIDO_LISTO, r -> pedido.equals(r.key())).size(), n -> n >= 2);
    assertThat(cuenta("facturacion.facturas", pedido)).isEqualTo(1);
    assertThat(cuenta("inventario.reservas", pedido)).isEqualTo(1);
    assertThat(cuenta("despacho.validaciones", pedido)).isEqualTo(1);
    assertThat(cuenta("cadena.pedidos_listos", pedido)).isEqualTo(1);
    assertThat(stock(producto)).isEqualTo(95);
    assertThat(estadoCadena(pedido)).isEqualTo("LISTO");
  }

  @Test
  @DisplayName("not enough stock: the order ends RECHAZADO, its invoice compensated by a credit note, the stock untouched")
  void outOfStockIsRejectedAndCompensated() {
    String producto = producto(1);
    String pedido = pedir(producto, 2);

    await("the rejection").atMost(Duration.ofSeconds(20)).until(() -> estadoCadena(pedido), "RECHAZADO"::equals);
    assertThat(Db.strings(app.settings(), "SELECT etapa || ' ' || estado FROM cadena.cadena_etapa WHERE pedido = ?::uuid ORDER BY orden", pedido))
      .containsExactly("FACTURACION COMPLETADA", "INVENTARIO RECHAZADA", "DESPACHO PENDIENTE");
    await("the credit note").atMost(Duration.ofSeconds(10)).until(() -> cuenta("facturacion.notas_credito", pedido), n -> n == 1);
    assertThat(cuenta("inventario.reservas", pedido)).isZero();
    assertThat(stock(producto)).isEqualTo(1);
    assertThat(cuenta("despacho.validaciones", pedido)).isZero();
  }

  private static String producto(int disponible) {
    String producto = "T-" + UUID.randomUUID().toString().substring(0, 12);
    Db.update(app.settings(), "INSERT INTO inventario.stock (producto, disponible) VALUES (?, ?)", producto, disponible);
    return producto;
  }

  private static String pedir(String producto, int cantidad) {
    Http.Response r = api.crearPedido(Db.newActor(app.settings(), "VENDEDOR"), Api.pedido("T-1", producto, cantidad));
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json().getString("pedido");
  }

  private static String estadoCadena(String pedido) {
    List<String> estado = Db.strings(app.settings(), "SELECT estado FROM cadena.cadenas WHERE pedido = ?::uuid", pedido);
    return estado.isEmpty() ? "" : estado.get(0);
  }

  private static long cuenta(String tabla, String pedido) {
    return Db.count(app.settings(), "SELECT count(*) FROM " + tabla + " WHERE pedido = ?::uuid", pedido);
  }

  private static long stock(String producto) {
    return Db.count(app.settings(), "SELECT disponible FROM inventario.stock WHERE producto = ?", producto);
  }
}
