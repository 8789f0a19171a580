package ccp.platform.http;

import ccp.app.Role;
import ccp.platform.config.ConfigException;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@DisplayName("The App's contract: valid OpenAPI, every route a role mounts is in it, every path in it is served")
class ContratoTest {

  private static Vertx vertx;
  private static Contrato contrato;

  @BeforeAll
  static void cargar() throws Exception {
    vertx = Vertx.vertx();
    contrato = Contrato.cargar(vertx).await(30, TimeUnit.SECONDS);
  }

  @AfterAll
  static void cerrar() {
    vertx.close().await();
  }

  @Test
  @DisplayName("vertx-openapi reads the contract as OpenAPI 3 and finds its operations")
  void valido() {
    assertThat(contrato.contract().getVersion().name()).startsWith("V3");
    assertThat(contrato.operaciones()).contains("POST /v1/pedidos", "GET /v1/pedidos/{pedido}", "POST /ssf/recepcion",
      "PATCH /v1/ssf/stream");
  }

  @Test
  @DisplayName("a router mounting an App route the contract does not name is refused; management and role-to-role routes are not the App's")
  void rutaFueraDelContrato() {
    Router router = Router.router(vertx);
    router.get("/v1/pedidos/:pedido").handler(ctx -> ctx.end());
    router.post("/interno/pedidos/:pedido/anulacion").handler(ctx -> ctx.end());
    router.get("/health/live").handler(ctx -> ctx.end());
    router.route("/v1/*").handler(ctx -> ctx.end());
    contrato.verificar(router, "test");
    router.delete("/v1/pedidos/:pedido").handler(ctx -> ctx.end());
    assertThatThrownBy(() -> contrato.verificar(router, "test")).isInstanceOf(ConfigException.class)
      .hasMessageContaining("DELETE /v1/pedidos/{pedido}");
  }

  @Test
  @DisplayName("every operation of the contract is served through the gateway: none meets the router's 404 or 405")
  void todoElContratoSeSirve() throws Exception {
    var cluster = SharedInfra.settings();
    try (RunningApp servicios = RunningApp.start(cluster, EnumSet.complementOf(EnumSet.of(Role.GATEWAY)));
         RunningApp puerta = RunningApp.start(SharedInfra.process(cluster, Map.of()), EnumSet.of(Role.GATEWAY))) {
      List<String> sinServir = new ArrayList<>();
      for (String operacion : contrato.operaciones()) {
        // The Shared Signals receiver is mounted only where a provider is configured (ssf.receptor.*): ReceptorSsfTest.
        if (operacion.equals("POST /ssf/recepcion")) continue;
        String method = operacion.substring(0, operacion.indexOf(' '));
        String path = operacion.substring(operacion.indexOf(' ') + 1).replaceAll("\\{[^}]+}", "x");
        Http.Response response = Http.send(method, puerta.gatewayUrl() + path, null, "{}");
        if (sinRuta(response)) sinServir.add(operacion + " -> " + response.status() + " " + response.body());
      }
      assertThat(sinServir).isEmpty();
    }
  }

  /** The router's own answer to a path or method no route takes (ApiRouter.unmatched), not a handler's 404. */
  private static boolean sinRuta(Http.Response response) {
    if (response.status() != 404 && response.status() != 405) return false;
    try {
      String error = new JsonObject(response.body()).getString("error", "");
      return error.equals("not_found") && response.body().contains("no resource at") || error.equals("method_not_allowed");
    } catch (RuntimeException notJson) {
      return true;
    }
  }
}
