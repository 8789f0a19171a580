package ccp.keycloak;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.Keycloak;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The App's tokens as Keycloak issues them: the committed realm's public client {@code ccp-app}, a person signing in
 * with authorization code and PKCE, the gateway verifying with the realm's JWK Set. Who the actor is and what it may
 * do is the Gestor's directory's: a claim Keycloak adds grants nothing the directory does not.
 */
@DisplayName("Keycloak signs the App's tokens: accepted at the gateway, the profile the directory's, an unknown user refused")
class TokensKeycloakTest {

  private static final String APP = "ccp-app";
  private static final String REDIRECT = "https://app.example.com/callback";

  private static Keycloak keycloak;
  private static Settings cluster;
  private static RunningApp app;

  @BeforeAll
  @Timeout(value = 15, unit = TimeUnit.MINUTES)
  static void start() throws Exception {
    keycloak = Keycloak.shared();
    cluster = SharedInfra.settings(Map.of("jwt.jwks-url", keycloak.jwksUrl(), "jwt.issuer", keycloak.realmUrl(),
      "jwt.audience", APP));
    app = RunningApp.start(cluster, Set.of(Role.GATEWAY, Role.GESTOR, Role.SEGURIDAD, Role.PEDIDOS));
  }

  @AfterAll
  static void stop() throws Exception {
    if (app != null) app.close();
  }

  @Test
  @DisplayName("a vendedor signed in at Keycloak reaches the vendedor's routes; the token is Keycloak's, RS256, aud ccp-app")
  void vendedor() {
    Persona ana = persona("VENDEDOR", "VENDEDOR");
    JsonObject claims = claims(ana.token());
    assertThat(claims.getString("iss")).isEqualTo(keycloak.realmUrl());
    assertThat(claims.getString("sub")).isEqualTo(ana.id());
    assertThat(claims.getValue("aud").toString()).contains(APP);
    assertThat(leerPedido(ana).status()).as("let in: the order does not exist").isEqualTo(404);
    assertThat(alertas(ana).status()).as("not the security area's").isEqualTo(403);
  }

  @Test
  @DisplayName("the profile is the directory's: Keycloak's perfil attribute or a realm role SEGURIDAD grant nothing the directory does not")
  void perfilDelDirectorio() {
    Persona seguridad = persona("SEGURIDAD", "SEGURIDAD");
    assertThat(alertas(seguridad).status()).isEqualTo(200);

    Persona sePresenta = persona("SEGURIDAD", "VENDEDOR");
    assertThat(claims(sePresenta.token()).getString("perfil")).isEqualTo("SEGURIDAD");
    assertThat(alertas(sePresenta).status()).as("Keycloak's claim says SEGURIDAD, the directory VENDEDOR").isEqualTo(403);

    String rol = "SEGURIDAD-" + UUID.randomUUID().toString().substring(0, 8);
    keycloak.adminOk("POST", "/roles", new JsonObject().put("name", rol));
    Persona conRol = persona("VENDEDOR", "VENDEDOR");
    JsonObject role = new JsonObject(keycloak.adminOk("GET", "/roles/" + rol, null).body());
    keycloak.adminOk("POST", "/users/" + conRol.id() + "/role-mappings/realm", new JsonArray().add(role));
    Persona otraVez = new Persona(conRol.id(), conRol.username(), signIn(conRol.username()));
    assertThat(claims(otraVez.token()).getJsonObject("realm_access").getJsonArray("roles").contains(rol)).isTrue();
    assertThat(alertas(otraVez).status()).isEqualTo(403);
    assertThat(leerPedido(otraVez).status()).isEqualTo(404);
  }

  @Test
  @DisplayName("a token Keycloak signed for a user the directory lacks is refused with 403")
  void desconocido() {
    String username = "nadie-" + UUID.randomUUID().toString().substring(0, 8);
    String id = keycloak.newUser(username, PASSWORD, "VENDEDOR");
    Persona nadie = new Persona(id, username, signIn(username));
    Http.Response respuesta = leerPedido(nadie);
    assertThat(respuesta.status()).isEqualTo(403);
    assertThat(respuesta.body()).contains("unknown_actor");
  }

  private static final String PASSWORD = "Clave-de-prueba-1";

  private record Persona(String id, String username, String token) {}

  /** A Keycloak user with {@code perfilKeycloak}, in the directory as {@code perfilDirectorio}, signed in. */
  private static Persona persona(String perfilKeycloak, String perfilDirectorio) {
    String username = perfilDirectorio.toLowerCase() + "-" + UUID.randomUUID().toString().substring(0, 8);
    String id = keycloak.newUser(username, PASSWORD, perfilKeycloak);
    Db.update(cluster, "INSERT INTO gestor.actores (id, nombre, perfil) VALUES (?, ?, ?)", id, username, perfilDirectorio);
    return new Persona(id, username, signIn(username));
  }

  private static String signIn(String username) {
    return keycloak.signIn(APP, REDIRECT, username, PASSWORD).getString("access_token");
  }

  private static Http.Response leerPedido(Persona persona) {
    return Http.get(app.gatewayUrl() + "/v1/pedidos/" + UUID.randomUUID(), persona.token());
  }

  private static Http.Response alertas(Persona persona) {
    return Http.get(app.gatewayUrl() + "/v1/alertas", persona.token());
  }

  private static JsonObject claims(String token) {
    return new JsonObject(new String(Base64.getUrlDecoder().decode(token.split("\\.")[1])));
  }
}
