package ccp.consola;

import ccp.app.Role;
import ccp.support.Api;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The console's server side (the people in the loop), through a gateway that forwards to the roles over HTTP as in a deployment:
 * the pages and the development sign-in, the ASR board's sample, a vendedor's orders a page at a time, the revoked
 * actors with their reactions, and the live streams that the pages follow.
 */
@DisplayName("The console: its pages and sign-in, and the API additions its pages call")
class ConsolaApiTest {

  private static RunningApp servicios;
  private static RunningApp puerta;
  private static Api api;
  private static String gateway;
  private static final HttpClient CLIENT = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws Exception {
    var cluster = SharedInfra.settings();
    servicios = RunningApp.start(cluster, EnumSet.complementOf(EnumSet.of(Role.GATEWAY)));
    puerta = RunningApp.start(SharedInfra.process(cluster, Map.of()), EnumSet.of(Role.GATEWAY));
    gateway = puerta.gatewayUrl();
    api = new Api(gateway, TestTokens.devIssuer(servicios.app().vertx()));
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
  @DisplayName("the gateway serves the console's pages with a strict CSP, and the development sign-in beside the development issuer")
  void paginasYAccesoDeDesarrollo() {
    Http.Response pagina = Http.get(gateway + "/consola/", null);
    assertThat(pagina.status()).isEqualTo(200);
    assertThat(pagina.body()).contains("<script type=\"module\"");
    assertThat(Http.get(gateway + "/consola/app.js", null).status()).isEqualTo(200);

    JsonObject config = Http.get(gateway + "/consola/config.json", null).json();
    assertThat(config.getBoolean("desarrollo")).isTrue();
    assertThat(Http.get(gateway + "/consola/desarrollo/actores", null).json().getJsonArray("actores").encode())
      .contains("seguridad-1", "operador-1", "vendedor-1");

    String vendedor = Db.newActor(servicios.settings(), "VENDEDOR");
    JsonObject sesion = Http.post(gateway + "/consola/desarrollo/sesion", null, "{\"actor\":\"" + vendedor + "\"}").json();
    assertThat(sesion.getString("perfil")).isEqualTo("VENDEDOR");
    assertThat(Http.get(gateway + "/v1/pedidos?actor=me", sesion.getString("token")).status()).isEqualTo(200);

    Http.Response desconocido = Http.post(gateway + "/consola/desarrollo/sesion", null, "{\"actor\":\"nadie-" + System.nanoTime() + "\"}");
    assertThat(desconocido.status()).isEqualTo(404);
    assertThat(desconocido.json().getString("error")).isEqualTo("unknown_actor");
    assertThat(Http.post(gateway + "/consola/desarrollo/sesion", null, "{\"actor\":7}").status()).isEqualTo(400);
  }

  @Test
  @DisplayName("beside another issuer (Keycloak's keys, not the development one) there is no development sign-in, though its key file is there")
  void sinAccesoDeDesarrolloJuntoAOtroEmisor() throws Exception {
    io.vertx.core.Vertx vertx = servicios.app().vertx();
    JsonObject otros = new JsonObject().put("keys", new io.vertx.core.json.JsonArray()
      .add(ccp.platform.http.Jwks.publicPart(ccp.platform.http.Jwks.generateRs256("keycloak-1"))));
    io.vertx.core.http.HttpServer emisor = vertx.createHttpServer()
      .requestHandler(req -> req.response().putHeader("Content-Type", "application/json").end(otros.encode()))
      .listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
    assertThat(SharedInfra.dataDir().resolve(ccp.platform.infra.DevIssuer.FILE)).exists();
    try (RunningApp otra = RunningApp.start(SharedInfra.process(servicios.settings(), Map.of("gateway.port", SharedInfra.freePort(),
      "jwt.jwks-url", "http://127.0.0.1:" + emisor.actualPort() + "/jwks.json")), EnumSet.of(Role.GATEWAY))) {
      assertThat(Http.get(otra.gatewayUrl() + "/consola/config.json", null).json().getBoolean("desarrollo")).isFalse();
      assertThat(Http.get(otra.gatewayUrl() + "/consola/desarrollo/actores", null).status()).isEqualTo(404);
      assertThat(Http.post(otra.gatewayUrl() + "/consola/desarrollo/sesion", null, "{\"actor\":\"seguridad-1\"}").status())
        .isEqualTo(404);
      assertThat(Http.get(otra.gatewayUrl() + "/consola/", null).status()).as("the pages are still served").isEqualTo(200);
    } finally {
      emisor.close().await(10, TimeUnit.SECONDS);
    }
  }

  @Test
  @DisplayName("GET /v1/metricas needs a token and names the four ASRs with their budgets; /v1/metricas/historia holds the last minutes")
  void metricas() {
    assertThat(Http.get(gateway + "/v1/metricas", null).status()).isEqualTo(401);
    JsonObject muestra = Http.get(gateway + "/v1/metricas", api.token(Db.newActor(servicios.settings(), "CONSULTA"))).json();
    assertThat(muestra.getJsonObject("asr").fieldNames()).containsExactlyInAnyOrder("asr1", "asr2", "asr3", "asr4", "asr34");
    assertThat(muestra.containsKey("lag_por_grupo")).isTrue();

    String token = api.token(Db.newActor(servicios.settings(), "OPERADOR"));
    JsonObject historia = await("the gateway's first samples").atMost(Duration.ofSeconds(10))
      .until(() -> Http.get(gateway + "/v1/metricas/historia", token).json(), h -> h.getJsonArray("muestras").size() >= 2);
    assertThat(historia.getLong("cada_ms")).isEqualTo(2000);
    assertThat(historia.getJsonArray("muestras").getJsonObject(0).getJsonObject("asr").fieldNames()).contains("asr1", "asr4");
  }

  @Test
  @DisplayName("GET /v1/pedidos?actor=me lists only the caller's orders, newest first, a page at a time, each with its chain")
  void misPedidosPaginados() {
    String vendedor = Db.newActor(servicios.settings(), "VENDEDOR");
    String otro = Db.newActor(servicios.settings(), "VENDEDOR");
    String primero = api.pedidoAceptado(vendedor);
    String segundo = api.pedidoAceptado(vendedor);
    String tercero = api.pedidoAceptado(vendedor);
    api.pedidoAceptado(otro);

    JsonObject pagina = Http.get(gateway + "/v1/pedidos?actor=me&limit=2", api.token(vendedor)).json();
    assertThat(ids(pagina)).containsExactly(tercero, segundo);
    assertThat(pagina.getJsonArray("pedidos").getJsonObject(0).containsKey("cadena")).isTrue();
    JsonObject resto = Http.get(gateway + "/v1/pedidos?actor=me&limit=2&despues_de=" + pagina.getString("siguiente"),
      api.token(vendedor)).json();
    assertThat(ids(resto)).containsExactly(primero);
    assertThat(resto.getString("siguiente")).isNull();

    assertBad(Http.get(gateway + "/v1/pedidos?actor=" + otro, api.token(vendedor)), "actor");
    assertBad(Http.get(gateway + "/v1/pedidos", api.token(vendedor)), "actor");
    assertBad(Http.get(gateway + "/v1/pedidos?actor=me&limit=51", api.token(vendedor)), "limit");
    assertBad(Http.get(gateway + "/v1/pedidos?actor=me&despues_de=xyz", api.token(vendedor)), "despues_de");
  }

  @Test
  @DisplayName("a session from a wrong device: its alert comes down the open stream within 1 s of being stored, without asking")
  void alertaEnVivo() throws Exception {
    String area = api.token(Db.newActor(servicios.settings(), "SEGURIDAD"));
    assertThat(Http.get(gateway + "/v1/alertas/flujo", api.token(Db.newActor(servicios.settings(), "VENDEDOR"))).status())
      .isEqualTo(403);
    try (Eventos eventos = Eventos.abrir(gateway + "/v1/alertas/flujo", area)) {
      String vendedor = Db.newActor(servicios.settings(), "VENDEDOR");
      assertThat(Http.put(gateway + "/v1/dispositivos/" + vendedor, area, "{\"huella\":\"casa-consola-1\"}").status()).isEqualTo(200);
      assertThat(Http.post(gateway + "/v1/sesiones", api.token(vendedor), "{\"huella\":\"intruso-consola-9\"}").status()).isEqualTo(201);

      JsonObject alerta = eventos.esperar("alerta", a -> vendedor.equals(a.getString("actor")), Duration.ofSeconds(5));
      assertThat(alerta.getString("tipo")).isEqualTo("DISPOSITIVO_NO_VALIDO");
      java.time.Instant detectada = java.time.Instant.parse(alerta.getJsonObject("detalle").getString("detectada_en"));
      assertThat(detectada).as("the Verificador's finding, between the session and the notification")
        .isBetween(java.time.Instant.parse(alerta.getString("t0")), java.time.Instant.parse(alerta.getString("recibido_en")).plusMillis(1));
      assertThat(Duration.between(java.time.Instant.parse(alerta.getString("recibido_en")), eventos.llegada(alerta)))
        .isLessThan(Duration.ofSeconds(1));
    }
  }

  @Test
  @DisplayName("open streams hold no place at the door: with room for two requests, three consoles follow the alerts and a read still passes")
  void flujosSinPlazaEnLaPuerta() throws Exception {
    String area = api.token(Db.newActor(servicios.settings(), "SEGURIDAD"));
    try (RunningApp estrecha = RunningApp.start(SharedInfra.process(servicios.settings(), Map.of("gateway.port", SharedInfra.freePort(),
           "http.instances", 1, "http.admission-min-limit", 2, "http.admission-initial-limit", 2, "http.admission-max-limit", 2)),
           EnumSet.of(Role.GATEWAY));
         Eventos una = Eventos.abrir(estrecha.gatewayUrl() + "/v1/alertas/flujo", area);
         Eventos otra = Eventos.abrir(estrecha.gatewayUrl() + "/v1/alertas/flujo", area);
         Eventos tercera = Eventos.abrir(estrecha.gatewayUrl() + "/v1/alertas/flujo", area)) {
      for (Eventos eventos : List.of(una, otra, tercera)) eventos.esperar("revocaciones", e -> true, Duration.ofSeconds(5));
      assertThat(Http.get(estrecha.gatewayUrl() + "/v1/alertas?limit=1", area).status()).isEqualTo(200);
    }
  }

  @Test
  @DisplayName("an improper write: the actor is listed as revoked and blocked with its reaction's steps, and the stream says so")
  void revocadoConSusPasos() throws Exception {
    String area = api.token(Db.newActor(servicios.settings(), "SEGURIDAD"));
    String consulta = Db.newActor(servicios.settings(), "CONSULTA");
    try (Eventos eventos = Eventos.abrir(gateway + "/v1/alertas/flujo", area)) {
      eventos.esperar("revocaciones", e -> true, Duration.ofSeconds(5));
      api.pedidoAceptado(consulta);
      JsonObject detenido = await("the actor listed with its finished reaction").atMost(Duration.ofSeconds(15))
        .until(() -> detenido(area, consulta), d -> d != null && d.getJsonArray("reacciones").size() == 1
          && "NOTIFICADA".equals(d.getJsonArray("reacciones").getJsonObject(0).getString("paso")));
      assertThat(detenido.getBoolean("revocado")).isTrue();
      assertThat(detenido.getBoolean("bloqueado")).isTrue();
      assertThat(detenido.getString("motivo")).contains("escritura indebida");
      JsonObject reaccion = detenido.getJsonArray("reacciones").getJsonObject(0);
      List<String> pasos = List.of("t_escritura", "t_det", "abierta_en", "revocada_en", "bloqueada_en", "compensada_en", "terminada_en");
      assertThat(pasos.stream().map(reaccion::getString).map(java.time.Instant::parse).toList())
        .as("each step of the reaction at its time, in order").isSorted();
      JsonObject alerta = api.alertas(Db.newActor(servicios.settings(), "SEGURIDAD"), consulta).stream()
        .filter(a -> "ACCESO_INDEBIDO".equals(a.getString("tipo"))).findFirst().orElseThrow();
      assertThat(alerta.getJsonObject("reaccion").getString("t_escritura")).as("the alert gives its reaction's steps")
        .isEqualTo(reaccion.getString("t_escritura"));
      assertThat(alerta.getJsonObject("reaccion").getString("terminada_en")).isEqualTo(reaccion.getString("terminada_en"));
      eventos.esperar("revocaciones", e -> true, Duration.ofSeconds(5));
    }
    assertThat(Http.get(gateway + "/v1/revocaciones", api.token(consulta)).status()).isEqualTo(403);
  }

  @Test
  @DisplayName("a vendedor's stream says when one of its orders is created or its chain moves, past the request deadline; the Bandeja's stream answers the operator")
  void pedidosYBandejaEnVivo() throws Exception {
    String vendedor = Db.newActor(servicios.settings(), "VENDEDOR");
    // Through a gateway whose requests must be answered within 500 ms: a stream is not a request waiting for its answer.
    try (RunningApp impaciente = RunningApp.start(SharedInfra.process(servicios.settings(), Map.of("gateway.port",
           SharedInfra.freePort(), "http.request-timeout-ms", 500)), EnumSet.of(Role.GATEWAY));
         Eventos eventos = Eventos.abrir(impaciente.gatewayUrl() + "/v1/pedidos/flujo?actor=me", api.token(vendedor))) {
      eventos.esperar("pedidos", e -> true, Duration.ofSeconds(5));
      Thread.sleep(1_500);
      api.pedidoAceptado(vendedor);
      eventos.esperar("pedidos", e -> true, Duration.ofSeconds(5));
    }
    String operador = api.token(Db.newActor(servicios.settings(), "OPERADOR"));
    try (Eventos eventos = Eventos.abrir(gateway + "/v1/bandeja/flujo", operador)) {
      assertThat(eventos.esperar("bandeja", e -> true, Duration.ofSeconds(5)).getString("version")).isNotBlank();
    }
  }

  @Test
  @DisplayName("attack: a SEGURIDAD actor revoked while its alert stream is open is told why and cut off within 2 s; no alert after its revocation reaches it")
  void flujoTerminaAlRevocarSuActor() throws Exception {
    String control = api.token(Db.newActor(servicios.settings(), "SEGURIDAD"));
    String intruso = Db.newActor(servicios.settings(), "SEGURIDAD");
    try (Eventos suyo = Eventos.abrir(gateway + "/v1/alertas/flujo", api.token(intruso));
         Eventos otro = Eventos.abrir(gateway + "/v1/alertas/flujo", control)) {
      suyo.esperar("revocaciones", e -> true, Duration.ofSeconds(5));
      otro.esperar("revocaciones", e -> true, Duration.ofSeconds(5));
      // Its own improper write (SEGURIDAD may not write orders): the Reacción revokes it, then tells the area.
      api.pedidoAceptado(intruso);
      JsonObject alerta = otro.esperar("alerta", a -> intruso.equals(a.getString("actor")), Duration.ofSeconds(15));
      java.time.Instant revocado = java.time.Instant.parse(detenido(control, intruso).getString("revocado_en"));

      java.time.Instant terminado = suyo.terminado(Duration.ofSeconds(5));
      assertThat(Duration.between(revocado, terminado)).as("the stream ended after the revocation").isLessThan(Duration.ofSeconds(2));
      assertThat(suyo.alertasRecibidas()).as("the alert of its own revocation, stored after it, never reached it")
        .noneMatch(a -> a.getString("id_alerta").equals(alerta.getString("id_alerta")))
        .noneMatch(a -> java.time.Instant.parse(a.getString("recibido_en")).isAfter(revocado));
      JsonObject fin = suyo.esperar("fin", e -> true, Duration.ofSeconds(1));
      assertThat(fin.getInteger("status")).isEqualTo(403);
      assertThat(fin.getString("error")).isEqualTo("actor_revoked");
      assertThat(Http.get(gateway + "/v1/alertas/flujo", api.token(intruso)).status()).as("nor may it open another").isEqualTo(403);
    }
  }

  @Test
  @DisplayName("a stream whose token expires while it is open ends with 401, as the token's next request would")
  void flujoTerminaAlExpirarSuToken() throws Exception {
    String area = Db.newActor(servicios.settings(), "SEGURIDAD");
    String breve = TestTokens.devIssuer(servicios.app().vertx()).livingSeconds(area, "SEGURIDAD", 2);
    try (Eventos eventos = Eventos.abrir(gateway + "/v1/alertas/flujo", breve)) {
      eventos.esperar("revocaciones", e -> true, Duration.ofSeconds(5));
      // exp, then the verifier's 5 s leeway, then a tick.
      JsonObject fin = eventos.esperar("fin", e -> true, Duration.ofSeconds(10));
      assertThat(fin.getInteger("status")).isEqualTo(401);
      assertThat(fin.getString("message")).isEqualTo("token expired");
      eventos.terminado(Duration.ofSeconds(5));
    }
    assertThat(Http.get(gateway + "/v1/alertas/flujo", breve).status()).isEqualTo(401);
  }

  private static JsonObject detenido(String area, String actor) {
    Http.Response response = Http.get(gateway + "/v1/revocaciones", area);
    assertThat(response.status()).as(response.body()).isEqualTo(200);
    return response.json().getJsonArray("detenidos").stream().map(JsonObject.class::cast)
      .filter(d -> actor.equals(d.getString("actor"))).findFirst().orElse(null);
  }

  private static List<String> ids(JsonObject pagina) {
    return pagina.getJsonArray("pedidos").stream().map(p -> ((JsonObject) p).getString("pedido")).toList();
  }

  private static void assertBad(Http.Response response, String field) {
    assertThat(response.status()).as(response.body()).isEqualTo(400);
    assertThat(response.json().getString("field")).isEqualTo(field);
  }

  /** An open event stream, read on its own thread into a queue, as the console's fetch reader reads it. */
  private static final class Eventos implements AutoCloseable {
    private record Evento(String nombre, JsonObject datos, java.time.Instant llegada) {}

    private final LinkedBlockingQueue<Evento> recibidos = new LinkedBlockingQueue<>();
    private final List<Evento> todos = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final CompletableFuture<java.time.Instant> fin = new CompletableFuture<>();
    private final Map<JsonObject, java.time.Instant> llegadas = new java.util.IdentityHashMap<>();
    private final InputStream cuerpo;

    private Eventos(InputStream cuerpo) {
      this.cuerpo = cuerpo;
      Thread lector = new Thread(this::leer, "lector-eventos");
      lector.setDaemon(true);
      lector.start();
    }

    static Eventos abrir(String url, String token) throws Exception {
      HttpRequest request = HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + token)
        .header("Accept", "text/event-stream").GET().build();
      CompletableFuture<HttpResponse<InputStream>> response = CLIENT.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream());
      HttpResponse<InputStream> abierta = response.get(10, TimeUnit.SECONDS);
      assertThat(abierta.statusCode()).isEqualTo(200);
      assertThat(abierta.headers().firstValue("content-type").orElse("")).startsWith("text/event-stream");
      return new Eventos(abierta.body());
    }

    private void leer() {
      try (BufferedReader reader = new BufferedReader(new InputStreamReader(cuerpo, StandardCharsets.UTF_8))) {
        String nombre = null;
        for (String linea = reader.readLine(); linea != null; linea = reader.readLine()) {
          if (linea.startsWith("event: ")) nombre = linea.substring(7);
          else if (linea.startsWith("data: ") && nombre != null) {
            Evento evento = new Evento(nombre, new JsonObject(linea.substring(6)), java.time.Instant.now());
            todos.add(evento);
            recibidos.add(evento);
            nombre = null;
          }
        }
        fin.complete(java.time.Instant.now());
      } catch (java.io.IOException closed) {
        // the test closed the stream, or the server cut it
        fin.complete(java.time.Instant.now());
      }
    }

    /** When the server ended the stream; fails unless it did within {@code plazo}. */
    java.time.Instant terminado(Duration plazo) throws Exception {
      try {
        return fin.get(plazo.toMillis(), TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        throw new AssertionError("the stream was still open after " + plazo);
      }
    }

    /** Every alert the stream wrote, whether or not a test waited for it. */
    List<JsonObject> alertasRecibidas() {
      return todos.stream().filter(e -> e.nombre().equals("alerta")).map(Evento::datos).toList();
    }

    JsonObject esperar(String nombre, java.util.function.Predicate<JsonObject> cual, Duration plazo) throws InterruptedException {
      long fin = System.nanoTime() + plazo.toNanos();
      while (System.nanoTime() < fin) {
        Evento evento = recibidos.poll(fin - System.nanoTime(), TimeUnit.NANOSECONDS);
        if (evento != null && evento.nombre().equals(nombre) && cual.test(evento.datos())) {
          llegadas.put(evento.datos(), evento.llegada());
          return evento.datos();
        }
      }
      throw new AssertionError("no '" + nombre + "' event within " + plazo);
    }

    java.time.Instant llegada(JsonObject datos) {
      return llegadas.get(datos);
    }

    @Override
    public void close() throws Exception {
      cuerpo.close();
    }
  }
}
