package ccp.gateway;

import ccp.app.Role;
import ccp.platform.http.Jwks;
import ccp.platform.infra.DevIssuer;
import ccp.support.Crudo;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an attacker sends to the doors, each case a regression test: request framing (smuggling), tokens the issuer
 * signed with claims of the wrong type or range, requests the HTTP decoder or the router refuse (each a JSON error),
 * the console's headers; and what already held (forged, unsigned, alg-confused and expired tokens, another profile's
 * or role's access, traversal). One process: the gateway, and the Gestor behind it with its own port.
 */
@DisplayName("Hostile input at the doors: framing, malformed tokens, errors with a body, the console's headers; and what already held")
class HostilTest {

  /** Served if the framing is misread: the bytes after the chunked body of a request that also declared a length. */
  private static final String CONTRABANDO = "GET /consola/config.json HTTP/1.1\r\nHost: x\r\n\r\n";

  private static RunningApp app;
  private static Vertx vertx;
  private static TestTokens emisor;
  private static String vendedor;
  private static Map<String, Integer> puertas;

  @BeforeAll
  static void start() throws Exception {
    app = RunningApp.start(SharedInfra.settings(), EnumSet.of(Role.GATEWAY, Role.GESTOR));
    vertx = app.app().vertx();
    emisor = TestTokens.devIssuer(vertx);
    vendedor = Db.newActor(app.settings(), "VENDEDOR");
    puertas = new LinkedHashMap<>();
    puertas.put("gateway", app.settings().integer("gateway.port"));
    puertas.put("gestor", app.settings().integer("gestor.port"));
    puertas.put("management", app.app().managementPort());
  }

  @AfterAll
  static void stop() throws Exception {
    if (app != null) app.close();
  }

  @Test
  @DisplayName("Content-Length with Transfer-Encoding at every door: 400 ambiguous_framing, the connection closed, the smuggled request not served")
  void dosEncuadres() {
    for (var puerta : puertas.entrySet()) {
      for (String peticion : new String[] {
        "POST /v1/sesiones HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "POST /v1/sesiones HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n0\r\n\r\n",
        "POST /v1/sesiones HTTP/1.0\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding:\tchunked\r\n\r\n0\r\n\r\n"}) {
        Crudo respuesta = Crudo.enviar(puerta.getValue(), peticion + CONTRABANDO);
        refusedAndClosed(puerta.getKey(), respuesta, 400, "ambiguous_framing");
      }
    }
  }

  @Test
  @DisplayName("a transfer coding other than chunked alone (xchunked, chunked not last, gzip): 501 and the connection closed")
  void codificacionDesconocida() {
    for (var puerta : puertas.entrySet()) {
      for (String coding : new String[] {"xchunked", "chunked, gzip", "gzip, chunked", "chunked, chunked", "identity"}) {
        // A body framed as the decoder reads it: by the chunks when chunked is among the codings, else by the length.
        String cuerpo = coding.contains("chunked") ? "2\r\n{}\r\n0\r\n\r\n" : "{}";
        Crudo respuesta = Crudo.enviar(puerta.getValue(), "POST /v1/sesiones HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n"
          + "Transfer-Encoding: " + coding + "\r\n\r\n" + cuerpo + CONTRABANDO);
        refusedAndClosed(puerta.getKey() + " " + coding, respuesta, 501, "unsupported_transfer_coding");
      }
    }
  }

  @Test
  @DisplayName("what the HTTP decoder refuses is a JSON error and a closed connection: two Content-Lengths (400), a malformed header (400), headers too large (431), a request line too long (414)")
  void loQueElDecodificadorRechaza() {
    Map<String, Object[]> casos = new LinkedHashMap<>();
    casos.put("POST /v1/sesiones HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}x", new Object[] {400, "bad_request"});
    casos.put("POST /v1/sesiones HTTP/1.1\r\nHost: x\r\nContent-Length: 2, 3\r\n\r\n{}x", new Object[] {400, "bad_request"});
    casos.put("POST /v1/sesiones HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\nContent-Length: 2\r\n\r\n{}", new Object[] {400, "bad_request"});
    casos.put("GET /consola/ HTTP/1.1\r\nHost: x\r\nX-Relleno: " + "a".repeat(20_000) + "\r\n\r\n", new Object[] {431, "headers_too_large"});
    casos.put("GET /consola/" + "a".repeat(10_000) + " HTTP/1.1\r\nHost: x\r\n\r\n", new Object[] {414, "uri_too_long"});
    for (var puerta : puertas.entrySet()) {
      casos.forEach((peticion, esperado) -> refusedAndClosed(puerta.getKey() + " " + peticion.substring(0, 40),
        Crudo.enviar(puerta.getValue(), peticion), (Integer) esperado[0], (String) esperado[1]));
    }
  }

  @Test
  @DisplayName("a path the router cannot decode, an unknown path on the management port: JSON errors, not text or HTML")
  void erroresDelEnrutadorEnJson() {
    for (var puerta : puertas.entrySet()) {
      for (String path : new String[] {"/%", "/consola/%zz"}) {
        Crudo respuesta = Crudo.enviar(puerta.getValue(), "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertThat(respuesta.estados()).as(puerta.getKey() + " " + path).containsExactly(400);
        assertThat(respuesta.json().getString("error")).as(puerta.getKey() + " " + path).isEqualTo("bad_request");
      }
      Crudo nada = Crudo.enviar(puerta.getValue(), "GET /nada HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      assertThat(nada.estados()).as(puerta.getKey()).containsExactly(404);
      assertThat(nada.json().getString("error")).as(puerta.getKey()).isEqualTo("not_found");
    }
  }

  @Test
  @DisplayName("every console resource carries its security headers: the pages, config.json, the development sign-in, a 404")
  void cabecerasDeLaConsola() {
    for (String path : new String[] {"/consola/", "/consola/app.js", "/consola/config.json", "/consola/desarrollo/actores", "/consola/no-existe"}) {
      Crudo respuesta = Crudo.enviar(puertas.get("gateway"), "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      assertThat(respuesta.cabecera("Content-Security-Policy")).as(path).contains("default-src 'self'").contains("frame-ancestors 'none'");
      assertThat(respuesta.cabecera("X-Content-Type-Options")).as(path).isEqualTo("nosniff");
      assertThat(respuesta.cabecera("Referrer-Policy")).as(path).isEqualTo("no-referrer");
    }
  }

  @Test
  @DisplayName("a token the issuer signed with a claim of the wrong type or out of range is a 401 naming the claim, never a 500 or a 200")
  void reclamosMalFormados() {
    long ahora = Instant.now().getEpochSecond();
    List<Map.Entry<String, Consumer<JsonObject>>> casos = List.of(
      Map.entry("aud", c -> c.put("aud", new JsonObject().put("ccp-app", true))),
      Map.entry("aud", c -> c.put("aud", 5)),
      Map.entry("aud", c -> c.put("aud", new JsonArray().add(5))),
      Map.entry("exp", c -> c.put("exp", String.valueOf(ahora + 600))),
      Map.entry("exp", c -> c.putNull("exp")),
      Map.entry("exp", c -> c.put("exp", 1e300)),
      Map.entry("iat", c -> c.put("iat", String.valueOf(ahora))),
      Map.entry("iat", c -> c.remove("iat")),
      Map.entry("nbf", c -> c.put("nbf", String.valueOf(ahora))),
      Map.entry("nbf", c -> c.put("nbf", new JsonObject())),
      Map.entry("iss", c -> c.put("iss", new JsonArray().add("ccp"))),
      Map.entry("sub", c -> c.put("sub", 42)),
      // A token "valid for ever": the lifetime's subtraction must not overflow into a short, allowed one.
      Map.entry("exp", c -> c.put("iat", Long.MIN_VALUE).put("exp", Long.MAX_VALUE)),
      Map.entry("exp", c -> c.put("iat", -9.223372036854776E18).put("exp", 9.223372036854776E18)),
      Map.entry("iat", c -> c.put("iat", Long.MIN_VALUE)),
      Map.entry("lives", c -> c.put("exp", ahora + 10L * 365 * 24 * 3600)));
    // Every case is tried and reported, not only the first that fails.
    SoftAssertions cada = new SoftAssertions();
    casos.forEach(caso -> {
      JsonObject claims = TestTokens.claims(vendedor, "VENDEDOR");
      caso.getValue().accept(claims);
      Http.Response respuesta = sesion(emisor.withClaims(claims));
      cada.assertThat(respuesta.status()).as(claims.encode() + " → " + respuesta.body()).isEqualTo(401);
      cada.assertThat(respuesta.body()).as(claims.encode()).contains("\"unauthorized\"").contains(caso.getKey());
    });
    cada.assertAll();
    assertThat(sesion(emisor.withClaims(TestTokens.claims(vendedor, "VENDEDOR"))).status())
      .as("the same claims, sound: the session is opened").isEqualTo(201);
  }

  @Test
  @DisplayName("a role-to-role token with a claim of the wrong type is a 401 at the role's port; another role's sound token a 403")
  void tokensEntreRoles() {
    String permisos = "http://127.0.0.1:" + puertas.get("gestor") + "/interno/actores/permisos";
    long ahora = Instant.now().getEpochSecond();
    JsonObject claims = new JsonObject().put("iss", "seguridad").put("sub", "seguridad").put("aud", "gestor")
      .put("iat", ahora).put("exp", String.valueOf(ahora + 60));
    Http.Response malFormado = Http.post(permisos, TestTokens.peerWithClaims(vertx, "seguridad", claims), "{\"actores\":[]}");
    assertThat(malFormado.status()).as(malFormado.body()).isEqualTo(401);
    assertThat(malFormado.json().getString("message")).contains("exp");

    Http.Response otroRol = Http.post(permisos, TestTokens.peer(vertx, "pedidos", "gestor"), "{\"actores\":[]}");
    assertThat(otroRol.status()).as(otroRol.body()).isEqualTo(403);
    assertThat(otroRol.json().getString("error")).isEqualTo("caller_not_allowed");
  }

  @Test
  @DisplayName("what held already: forged, unsigned, alg-confused, foreign-key and expired tokens 401; another profile's claim 403; traversal on /consola/ 404")
  void loQueYaResistia() throws Exception {
    String publica = Jwks.publicPart(DevIssuer.key(SharedInfra.dataDir())).encode();
    Map<String, String> tokens = new LinkedHashMap<>();
    tokens.put("forged under the issuer's kid", TestTokens.attacker(vertx).valid(vendedor, "VENDEDOR"));
    tokens.put("unsigned", TestTokens.unsigned(vendedor, "VENDEDOR"));
    tokens.put("HS256 keyed with the issuer's public key", TestTokens.sharedSecret(vertx, publica).valid(vendedor, "VENDEDOR"));
    tokens.put("expired", emisor.expired(vendedor));
    tokens.put("another audience", emisor.forAudience(vendedor, "otra-app"));
    tokens.put("another issuer", emisor.fromIssuer(vendedor, "https://otro.example"));
    tokens.forEach((caso, token) -> {
      Http.Response respuesta = sesion(token);
      assertThat(respuesta.status()).as(caso + ": " + respuesta.body()).isEqualTo(401);
      assertThat(respuesta.json().getString("error")).as(caso).isEqualTo("unauthorized");
    });

    Http.Response otroPerfil = sesion(emisor.valid(vendedor, "SEGURIDAD"));
    assertThat(otroPerfil.status()).as(otroPerfil.body()).isEqualTo(403);
    assertThat(otroPerfil.json().getString("error")).isEqualTo("perfil_mismatch");

    for (String path : new String[] {"/consola/../../etc/passwd", "/consola/%2e%2e/%2e%2e/etc/passwd", "/consola/..%2f..%2fetc%2fpasswd",
      "/consola/..\\..\\etc\\passwd", "/consola/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd"}) {
      Crudo respuesta = Crudo.enviar(puertas.get("gateway"), "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      assertThat(respuesta.estados()).as(path).containsExactly(404);
      assertThat(respuesta.json().getString("error")).as(path).isEqualTo("not_found");
    }
  }

  private static Http.Response sesion(String token) {
    return Http.post("http://127.0.0.1:" + puertas.get("gateway") + "/v1/sesiones", token, "{\"huella\":\"huella-hostil\"}");
  }

  private static void refusedAndClosed(String caso, Crudo respuesta, int status, String error) {
    assertThat(respuesta.estados()).as(caso + ": one answer, the smuggled request not served\n" + respuesta.texto()).containsExactly(status);
    assertThat(respuesta.json().getString("error")).as(caso).isEqualTo(error);
    assertThat(respuesta.cerrada()).as(caso + ": the connection closed").isTrue();
  }
}
