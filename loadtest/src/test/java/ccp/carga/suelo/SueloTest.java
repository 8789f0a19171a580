package ccp.carga.suelo;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("The floor does a path's I/O: a session or an order answered 201, and its records carried to the path's last step")
class SueloTest {

  /** The project's configuration, from the reactor's root or from the module's directory. */
  private static final String CONF = (Files.exists(Path.of("conf", "ccp.json")) ? Path.of("conf", "ccp.json")
    : Path.of("..", "conf", "ccp.json")).toAbsolutePath().toString();
  private static Vertx vertx;
  private static WebClient web;
  private static ProcesoSuelo sesiones;
  private static ProcesoSuelo pedidos;

  /** Both floors start side by side: each spends most of its start waiting on its own broker and database. */
  @BeforeAll
  static void start() throws Exception {
    vertx = Vertx.vertx();
    web = WebClient.create(vertx);
    ExecutorService starting = Executors.newFixedThreadPool(2);
    try {
      Future<ProcesoSuelo> deSesiones = starting.submit(() -> ProcesoSuelo.start("sesiones", CONF, 10));
      Future<ProcesoSuelo> dePedidos = starting.submit(() -> ProcesoSuelo.start("pedidos", CONF, 10));
      try {
        sesiones = deSesiones.get();
      } finally {
        pedidos = dePedidos.get(); // kept for @AfterAll to stop, even when the other did not start
      }
    } finally {
      starting.shutdown();
    }
  }

  @AfterAll
  static void close() throws Exception {
    try (ProcesoSuelo a = sesiones; ProcesoSuelo b = pedidos) {
      vertx.close().await(10, TimeUnit.SECONDS);
    }
  }

  @Test
  @DisplayName("a record carries the huella first and is as long as the system's SesionAbierta; the subject is read from any bearer JWT")
  void recordAndSubject() {
    assertThat(SueloSesiones.registro(UUID.randomUUID(), "casa-vendedor-7")).startsWith("casa-vendedor-7 ")
      .hasSize(SueloSesiones.TAMANO_REGISTRO);
    assertThat(SueloSesiones.TAMANO_REGISTRO).isGreaterThan(200);
    assertThat(SueloSesiones.sujeto("Bearer h." + claims("vendedor-7") + ".firma")).isEqualTo("vendedor-7");
  }

  @Test
  @DisplayName("sessions: 201, and the Verificador's floor has read each one (a stranger's raises an alert)")
  void sesiones() throws Exception {
    long before = done(sesiones);
    assertThat(post(sesiones, "/v1/sesiones", "{\"huella\":\"casa-vendedor-3\"}")).isEqualTo(201);
    assertThat(post(sesiones, "/v1/sesiones", "{\"huella\":\"desconocido-1\"}")).isEqualTo(201);
    await().atMost(Duration.ofSeconds(60)).until(() -> done(sesiones) >= before + 2);
  }

  @Test
  @DisplayName("orders: 201, and each order passes the relay and the three stages to pedido.listo")
  void pedidos() throws Exception {
    long before = done(pedidos);
    assertThat(post(pedidos, "/v1/pedidos", "{\"tendero\":\"T-1\",\"lineas\":[{\"producto\":\"P-1\",\"cantidad\":2}]}")).isEqualTo(201);
    await().atMost(Duration.ofSeconds(60)).until(() -> done(pedidos) >= before + 1);
  }

  private static int post(ProcesoSuelo suelo, String path, String body) throws Exception {
    return web.postAbs(suelo.uri() + path).putHeader("authorization", "Bearer h." + claims("vendedor-3") + ".firma")
      .sendBuffer(Buffer.buffer(body)).await(30, TimeUnit.SECONDS).statusCode();
  }

  private static long done(ProcesoSuelo suelo) throws Exception {
    return Long.parseLong(web.getAbs(suelo.uri().toString()).send().await(30, TimeUnit.SECONDS).bodyAsString().trim());
  }

  private static String claims(String sub) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(new JsonObject().put("sub", sub).encode().getBytes(StandardCharsets.UTF_8));
  }
}
