package ccp.support;

import io.vertx.core.json.JsonObject;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The App's calls through the gateway, as a test's actors make them. */
public final class Api {

  private final String gateway;
  private final TestTokens tokens;

  public Api(String gateway, TestTokens tokens) {
    this.gateway = gateway;
    this.tokens = tokens;
  }

  public String token(String actor) {
    String perfil = actor.substring(0, actor.indexOf('-')).toUpperCase(java.util.Locale.ROOT);
    return tokens.valid(actor, java.util.Set.of("CONSULTA", "SEGURIDAD", "OPERADOR", "BODEGA").contains(perfil) ? perfil : "VENDEDOR");
  }

  public Http.Response crearPedido(String actor, String body) {
    return Http.post(gateway + "/v1/pedidos", token(actor), body);
  }

  public static String pedido(String tendero, String producto, int cantidad) {
    return "{\"tendero\":\"" + tendero + "\",\"lineas\":[{\"producto\":\"" + producto + "\",\"cantidad\":" + cantidad + "}]}";
  }

  /** Creates an order and returns its id; fails the test unless it was accepted. */
  public String pedidoAceptado(String actor) {
    Http.Response response = crearPedido(actor, pedido("T-1", "P-1", 1));
    assertThat(response.status()).as(response.body()).isEqualTo(201);
    return response.json().getString("pedido");
  }

  public JsonObject leerPedido(String lector, String pedido) {
    Http.Response response = Http.get(gateway + "/v1/pedidos/" + pedido, token(lector));
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return response.json();
  }

  /** The Bandeja's items in {@code estado}, as the person responsible sees them. */
  public List<JsonObject> bandeja(String operador, String estado) {
    Http.Response response = Http.get(gateway + "/v1/bandeja?estado=" + estado, token(operador));
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return response.json().getJsonArray("items").stream().map(JsonObject.class::cast).toList();
  }

  public List<JsonObject> alertas(String area, String actor) {
    Http.Response response = Http.get(gateway + "/v1/alertas?actor=" + actor, token(area));
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return response.json().getJsonArray("alertas").stream().map(JsonObject.class::cast).toList();
  }
}
