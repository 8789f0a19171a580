package ccp.keycloak;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.support.Chromium;
import ccp.support.Db;
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
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The web console against a real Keycloak, in a real browser (headless Chromium): the page sends the person to the
 * realm's login page (the committed realm's public client {@code ccp-consola}, authorization code + PKCE), the person
 * types their password there, the page exchanges the code and acts with the token; signing out of the console ends the
 * person's session at Keycloak too, so that the next "Entrar" on that browser asks for the password again.
 */
@DisplayName("The console signs people in at Keycloak (code + PKCE, in a browser), acts for them, and signs them out of Keycloak too")
class ConsolaKeycloakTest {

  private static final String PASSWORD = "Clave-de-prueba-1";

  private static Keycloak keycloak;
  private static Settings cluster;
  private static RunningApp app;
  private static Chromium chromium;
  private static WebDriver driver;

  @BeforeAll
  @Timeout(value = 15, unit = TimeUnit.MINUTES)
  static void start() throws Exception {
    keycloak = Keycloak.shared();
    cluster = SharedInfra.settings(Map.of("jwt.jwks-url", keycloak.jwksUrl(), "jwt.issuer", keycloak.realmUrl(),
      "jwt.audience", "ccp-app", "consola.oidc.issuer", keycloak.realmUrl()));
    app = RunningApp.start(cluster, Set.of(Role.GATEWAY, Role.GESTOR, Role.SEGURIDAD, Role.PEDIDOS));
    // The console's client may send people back to this gateway's console, and its page may call the token endpoint
    // from there (CORS), as bin/keycloak sets it for the all-in-one.
    String consola = keycloak.clientUuid("ccp-consola");
    JsonObject client = new JsonObject(keycloak.adminOk("GET", "/clients/" + consola, null).body());
    client.put("redirectUris", new JsonArray().add(app.gatewayUrl() + "/consola/")).put("webOrigins", new JsonArray().add(app.gatewayUrl()));
    keycloak.adminOk("PUT", "/clients/" + consola, client);
    chromium = Chromium.start(1200, 1000);
    driver = chromium.driver();
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (chromium != null) chromium.close();
    } finally {
      if (app != null) app.close();
    }
  }

  @Test
  @DisplayName("a vendedor signs in at Keycloak's own page, places an order on its page, signs out: Keycloak's session ends with the console's")
  void entrarPedirYSalir() {
    String username = "vendedor-" + UUID.randomUUID().toString().substring(0, 8);
    String id = keycloak.newUser(username, PASSWORD, "VENDEDOR");
    Db.update(cluster, "INSERT INTO gestor.actores (id, nombre, perfil) VALUES (?, ?, ?)", id, username, "VENDEDOR");

    driver.get(app.gatewayUrl() + "/consola/");
    iniciarEnKeycloak();
    driver.findElement(By.id("username")).sendKeys(username);
    driver.findElement(By.id("password")).sendKeys(PASSWORD);
    driver.findElement(By.id("kc-login")).click();
    esperar(Duration.ofSeconds(20)).until(ExpectedConditions.textToBePresentInElementLocated(By.id("quien"), id + " · VENDEDOR"));
    assertThat(driver.getCurrentUrl()).as("back at the console, the code not left in the address")
      .startsWith(app.gatewayUrl() + "/consola/").doesNotContain("code=");
    assertThat(sesionesEnKeycloak(id)).as("the person's session at Keycloak").isEqualTo(1);

    driver.findElement(By.id("crear-pedido")).click();
    esperar(Duration.ofSeconds(20)).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#pedidos .pedido")));
    String pedido = driver.findElement(By.cssSelector("#pedidos .pedido")).getAttribute("data-pedido");
    assertThat(Db.strings(cluster, "SELECT actor FROM pedidos.pedidos WHERE id = ?::uuid", pedido))
      .as("the order written by the signed-in person").containsExactly(id);
    chromium.screenshot("keycloak-pedidos");

    driver.findElement(By.id("salir")).click();
    esperar(Duration.ofSeconds(20)).until(ExpectedConditions.elementToBeClickable(By.id("entrar-oidc")));
    assertThat(driver.getCurrentUrl()).as("back at the console after Keycloak's logout").startsWith(app.gatewayUrl() + "/consola/");
    assertThat(sesionesEnKeycloak(id)).as("Keycloak's session ended with the console's").isZero();

    // The next "Entrar" on this browser is Keycloak's login page again, not the same person let straight back in.
    iniciarEnKeycloak();
    assertThat(driver.findElement(By.id("username")).isDisplayed()).isTrue();
    chromium.screenshot("keycloak-tras-salir");
  }

  /** "Entrar" on the console's sign-in page: the browser is at the realm's login page. */
  private static void iniciarEnKeycloak() {
    esperar(Duration.ofSeconds(15)).until(ExpectedConditions.elementToBeClickable(By.id("entrar-oidc"))).click();
    esperar(Duration.ofSeconds(20)).until(ExpectedConditions.presenceOfElementLocated(By.id("username")));
    assertThat(driver.getCurrentUrl()).startsWith(keycloak.realmUrl() + "/protocol/openid-connect/auth");
  }

  private static int sesionesEnKeycloak(String user) {
    return new JsonArray(keycloak.adminOk("GET", "/users/" + user + "/sessions", null).body()).size();
  }

  private static WebDriverWait esperar(Duration plazo) {
    return new WebDriverWait(driver, plazo, Duration.ofMillis(100));
  }
}
