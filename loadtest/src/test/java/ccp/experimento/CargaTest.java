package ccp.experimento;

import ccp.platform.http.JwtConfig;
import ccp.platform.http.Jwks;
import ccp.platform.infra.DevIssuer;
import ccp.support.OnVertx;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("The experiment's load: sessions and orders, each kind spread over every gateway")
class CargaTest {

  private Vertx vertx;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  /** 60 sessions and 20 orders a second send four requests a tick: one count for both kinds sent every order to one door. */
  @Test
  @DisplayName("at the experiment's rates, each gateway gets half the sessions and half the orders")
  void eachKindOverEveryGateway() throws Exception {
    Map<String, AtomicInteger> asked = new ConcurrentHashMap<>();
    List<URI> gateways = List.of(serve("a", asked), serve("b", asked));
    DevIssuer minter = DevIssuer.of(vertx, Jwks.generateRs256("prueba"), new JwtConfig("", "ccp", "ccp-app", 60, 15));
    Carga carga = new Carga(vertx, vertx.createHttpClient(), gateways, minter, 10, 0.0, 0.0, 0);

    OnVertx.call(vertx, () -> carga.run(60, 20, 2, 2, () -> true)).await(30, TimeUnit.SECONDS);

    for (String kind : List.of("sesiones", "pedidos")) {
      int a = asked.get("a /v1/" + kind).get();
      int b = asked.get("b /v1/" + kind).get();
      assertThat(Math.abs(a - b)).as("%s: gateway a %d, b %d", kind, a, b).isLessThanOrEqualTo(1);
    }
    assertThat(carga.pedidos).hasSizeGreaterThanOrEqualTo(30);
  }

  private URI serve(String name, Map<String, AtomicInteger> asked) throws Exception {
    HttpServer server = vertx.createHttpServer()
      .requestHandler(req -> {
        asked.computeIfAbsent(name + " " + req.path(), k -> new AtomicInteger()).incrementAndGet();
        String field = req.path().endsWith("pedidos") ? "pedido" : "sesion";
        req.response().setStatusCode(201).end(new JsonObject().put(field, UUID.randomUUID().toString()).encode());
      })
      .listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
    return URI.create("http://127.0.0.1:" + server.actualPort());
  }
}
