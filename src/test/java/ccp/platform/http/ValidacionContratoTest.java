package ccp.platform.http;

import ccp.support.Http;
import ccp.support.SharedInfra;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("ValidacionContrato: an App request the contract refuses is a 400 naming the field; one it accepts reaches its handler with its body")
class ValidacionContratoTest {

  private static final String PEDIDO = "{\"tendero\":\"T-1\",\"lineas\":[{\"producto\":\"P-1\",\"cantidad\":2}]}";

  private static Vertx vertx;
  private static String url;

  @BeforeAll
  static void servir() throws Exception {
    vertx = Vertx.vertx();
    Contrato contrato = Contrato.cargar(vertx).await(30, TimeUnit.SECONDS);
    Router router = ApiRouter.create(vertx, HttpConfig.from(SharedInfra.defaults()));
    router.route("/v1/*").handler(new ValidacionContrato(contrato.contract()));
    // Each handler answers what it was given: the body as the contract accepted it, or the parameter.
    router.post("/v1/pedidos").handler(ctx -> JsonResponse.send(ctx, 201, JsonBody.of(ctx)));
    router.post("/v1/sesiones").handler(ctx -> JsonResponse.send(ctx, 201, JsonBody.of(ctx)));
    router.put("/v1/dispositivos/:vendedor").handler(ctx -> JsonResponse.ok(ctx, new JsonObject().put("vendedor", ctx.pathParam("vendedor"))));
    router.get("/v1/revocaciones").handler(ctx -> JsonResponse.ok(ctx, new JsonObject().put("limit", ctx.queryParams().get("limit"))));
    router.post("/v1/ssf/poll/:flujo").handler(ctx -> JsonResponse.ok(ctx, JsonBody.of(ctx)));
    router.patch("/v1/ssf/stream").handler(ctx -> JsonResponse.ok(ctx, JsonBody.of(ctx)));
    HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").await();
    url = "http://127.0.0.1:" + server.actualPort();
  }

  @AfterAll
  static void cerrar() {
    vertx.close().await();
  }

  @Test
  @DisplayName("a body member that breaks its schema is named by its place: lineas[0].cantidad, lineas[0].precio (unknown, with the allowed), a missing one")
  void miembrosDelCuerpo() {
    assertBad(Http.post(url + "/v1/pedidos", null, "{\"tendero\":\"T-1\",\"lineas\":[{\"producto\":\"P-1\",\"cantidad\":0}]}"),
      "lineas[0].cantidad");
    Http.Response desconocido = Http.post(url + "/v1/pedidos", null,
      "{\"tendero\":\"T-1\",\"lineas\":[{\"producto\":\"P-1\",\"cantidad\":1,\"precio\":9}]}");
    assertBad(desconocido, "lineas[0].precio");
    assertThat(desconocido.json().getString("message")).isEqualTo("unknown field (allowed: [cantidad, producto])");
    Http.Response falta = Http.post(url + "/v1/pedidos", null, "{\"tendero\":\"T-1\",\"lineas\":[{\"producto\":\"P-1\"}]}");
    assertBad(falta, "lineas[0].cantidad");
    assertThat(falta.json().getString("message")).isEqualTo("is required");
    assertBad(Http.post(url + "/v1/pedidos", null, "{\"lineas\":[{\"producto\":\"P-1\",\"cantidad\":1}]}"), "tendero");
    assertBad(Http.post(url + "/v1/pedidos", null, "{\"tendero\":\"T-1\",\"lineas\":[7]}"), "lineas[0]");
    assertBad(Http.post(url + "/v1/pedidos", null, PEDIDO.replace("}]}", "}],\"actor\":\"otro\"}")), "actor");
    assertBad(Http.post(url + "/v1/pedidos", null, PEDIDO.replace("\"cantidad\":2", "\"cantidad\":2,\"precio unitario\":9")),
      "lineas[0].precio unitario");
  }

  @Test
  @DisplayName("the path is the one the router matches: an escaped letter, a closing slash or a dot segment does not skip the check")
  void rutaNormalizada() {
    for (String path : new String[] {"/v1/revocaciones/", "/v1/%72evocaciones", "/v1/x/../revocaciones"}) {
      assertBad(Http.get(url + path + "?limit=0", null), "limit");
    }
    assertBad(Http.post(url + "/v1/pedidos/", null, "{}"), "tendero");
    assertThat(Http.post(url + "/v1/pedidos/", null, PEDIDO).status()).isEqualTo(201);
  }

  @Test
  @DisplayName("OpenAPI's nullable is honoured: a stream's description, delivery and events may be sent as null")
  void nulables() {
    String id = "a".repeat(32);
    Http.Response nulos = Http.send("PATCH", url + "/v1/ssf/stream", null,
      "{\"stream_id\":\"" + id + "\",\"description\":null,\"delivery\":null,\"events_requested\":null}");
    assertThat(nulos.status()).as(nulos.body()).isEqualTo(200);
    assertBad(Http.send("PATCH", url + "/v1/ssf/stream", null, "{\"stream_id\":null}"), "stream_id");
  }

  @Test
  @DisplayName("a body that is absent, not JSON or not an object is the field body")
  void cuerpo() {
    assertBad(Http.post(url + "/v1/pedidos", null, ""), "body");
    assertBad(Http.post(url + "/v1/pedidos", null, "no es json"), "body");
    assertBad(Http.post(url + "/v1/pedidos", null, "[1]"), "body");
  }

  @Test
  @DisplayName("a pattern's end is the text's end: a fingerprint with a line break after it is refused (Java's $ would let it through)")
  void finDeTexto() {
    assertBad(Http.post(url + "/v1/sesiones", null, "{\"huella\":\"abcdefgh\\n\"}"), "huella");
    assertBad(Http.send("PUT", url + "/v1/dispositivos/juan%0A", null, "{\"huella\":\"abcdefgh\"}"), "vendedor");
    assertThat(Http.post(url + "/v1/sesiones", null, "{\"huella\":\"abcdefgh\"}").status()).isEqualTo(201);
  }

  @Test
  @DisplayName("parameters: a path segment, a query value and a header are checked against their schemas and named")
  void parametros() {
    assertBad(Http.send("PUT", url + "/v1/dispositivos/a%20b", null, "{\"huella\":\"abcdefgh\"}"), "vendedor");
    Http.Response juan = Http.send("PUT", url + "/v1/dispositivos/juan.perez", null, "{\"huella\":\"abcdefgh\"}");
    assertThat(juan.status()).as(juan.body()).isEqualTo(200);
    for (String malo : new String[] {"0", "501", "abc", "5.0", "1e2", ""}) {
      assertBad(Http.get(url + "/v1/revocaciones?limit=" + malo, null), "limit");
    }
    assertThat(Http.get(url + "/v1/revocaciones?limit=5", null).json().getString("limit")).isEqualTo("5");
    assertThat(Http.get(url + "/v1/revocaciones", null).status()).isEqualTo(200);
    assertBad(Http.send("POST", url + "/v1/pedidos", null, PEDIDO, "Idempotency-Key", "no vale"), "Idempotency-Key");
    assertThat(Http.send("POST", url + "/v1/pedidos", null, PEDIDO, "Idempotency-Key", "clave-1").status()).isEqualTo(201);
    assertBad(Http.post(url + "/v1/ssf/poll/abc", null, "{}"), "stream_id");
  }

  @Test
  @DisplayName("an accepted body reaches its handler as sent; 2.0 is an integer, as JSON Schema says")
  void aceptado() {
    Http.Response creado = Http.post(url + "/v1/pedidos", null, PEDIDO);
    assertThat(creado.status()).isEqualTo(201);
    assertThat(creado.json()).isEqualTo(new JsonObject(PEDIDO));
    Http.Response sondeo = Http.post(url + "/v1/ssf/poll/" + "a".repeat(32), null, "{\"maxEvents\":2.0,\"ack\":[\"j-1\"]}");
    assertThat(sondeo.status()).as(sondeo.body()).isEqualTo(200);
  }

  @Test
  @DisplayName("a path the contract does not name passes on: the router answers it (404)")
  void fueraDelContrato() {
    assertThat(Http.get(url + "/v1/nada", null).status()).isEqualTo(404);
  }

  private static void assertBad(Http.Response response, String field) {
    assertThat(response.status()).as(response.body()).isEqualTo(400);
    assertThat(response.json().getString("error")).isEqualTo("invalid_field");
    assertThat(response.json().getString("field")).as(response.body()).isEqualTo(field);
  }
}
