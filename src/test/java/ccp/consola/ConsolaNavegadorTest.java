package ccp.consola;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.support.Api;
import ccp.support.Chromium;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The console in a real browser (headless Chromium), against the all-in-one on the embedded infrastructure: the people
 * in the loop see, without reloading, what the system does. Facturación runs in a process of its own, started only
 * once the Bandeja scenario has escalated its stage. Every page is checked for console errors and photographed under
 * {@code system/target/consola/}.
 */
@DisplayName("The console in a browser: alerts, revocations, the Bandeja and a vendedor's orders, live")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsolaNavegadorTest {

  private static final Duration VIVO = Duration.ofSeconds(2);
  private static final Duration CADENA = Duration.ofSeconds(40);

  private static Settings cluster;
  private static RunningApp app;
  private static RunningApp facturacion;
  private static Api api;
  private static Chromium chromium;
  private static WebDriver driver;

  @BeforeAll
  static void start() throws Exception {
    // Short deadlines, so that a stage that never answers is signalled, retried and escalated in seconds.
    cluster = SharedInfra.settings(Map.of("cadena.plazo-etapa-ms", 1_500, "reanudador.espera-ms", 1_000,
      "vigilancia.barrido-ms", 300, "vigilancia.liderazgo-ms", 200));
    EnumSet<Role> roles = EnumSet.allOf(Role.class);
    roles.remove(Role.FACTURACION);
    app = RunningApp.start(cluster, roles);
    api = new Api(app.gatewayUrl(), TestTokens.devIssuer(app.app().vertx()));
    chromium = Chromium.start(1200, 1000);
    driver = chromium.driver();
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (chromium != null) chromium.close();
    } finally {
      try {
        if (facturacion != null) facturacion.close();
      } finally {
        if (app != null) app.close();
      }
    }
  }

  /** Signs out as a person does (the page stops its streams first), and forgets what the browser logged. */
  @AfterEach
  void salir() {
    List<WebElement> salir = driver.findElements(By.id("salir"));
    if (!salir.isEmpty() && salir.get(0).isDisplayed()) {
      salir.get(0).click();
      esperar(Duration.ofSeconds(10)).until(ExpectedConditions.elementToBeClickable(By.id("actor-desarrollo")));
    }
    chromium.consoleErrors();
  }

  @Test
  @Order(1)
  @DisplayName("a session from a wrong device: its alert appears on the Seguridad page within 2 s, without reload")
  void alertaEnVivo() {
    String area = Db.newActor(cluster, "SEGURIDAD");
    entrar(area);
    esperar(Duration.ofSeconds(10)).until(ExpectedConditions.textToBe(By.id("estado-flujo"), "en vivo"));

    String vendedor = Db.newActor(cluster, "VENDEDOR");
    assertThat(Http.put(app.gatewayUrl() + "/v1/dispositivos/" + vendedor, api.token(area), "{\"huella\":\"casa-navegador-1\"}").status())
      .isEqualTo(200);
    Instant t0 = Instant.now();
    assertThat(Http.post(app.gatewayUrl() + "/v1/sesiones", api.token(vendedor), "{\"huella\":\"intruso-navegador-9\"}").status())
      .isEqualTo(201);
    WebElement alerta = esperar(VIVO.plusMillis(500)).until(ExpectedConditions.presenceOfElementLocated(
      By.cssSelector("#alertas li[data-actor='" + vendedor + "']")));
    assertThat(Duration.between(t0, Instant.now())).as("from the session to the alert on the page").isLessThanOrEqualTo(VIVO);
    assertThat(alerta.getAttribute("data-tipo")).isEqualTo("DISPOSITIVO_NO_VALIDO");

    // Its timeline: the session (t0), the Verificador's finding, the area notified — each at its time, in that order.
    alerta.click();
    esperar(Duration.ofSeconds(5)).until(d -> pasosHechos().contains("notificada al área"));
    assertThat(pasosHechos()).containsSubsequence("t0", "detección", "notificada al área");

    // The vendedor's new phone, registered by the area: its next session from it raises nothing.
    driver.findElement(By.id("dispositivo-vendedor")).sendKeys(vendedor);
    driver.findElement(By.id("dispositivo-huella")).sendKeys("intruso-navegador-9");
    driver.findElement(By.id("registrar-dispositivo")).click();
    esperar(Duration.ofSeconds(10)).until(ExpectedConditions.textToBePresentInElementLocated(By.id("dispositivo-resultado"),
      "Registrado: " + vendedor));
    assertThat(Db.strings(cluster, "SELECT huella FROM seguridad.registro_dispositivos WHERE vendedor = ?", vendedor))
      .containsExactly("intruso-navegador-9");
    sinErrores("seguridad");
  }

  @Test
  @Order(2)
  @DisplayName("an improper write: the revoked actor appears with its reaction's steps; the area lifts the revocation")
  void revocadoConSusPasos() {
    entrar(Db.newActor(cluster, "SEGURIDAD"));
    esperar(Duration.ofSeconds(10)).until(ExpectedConditions.textToBe(By.id("estado-flujo"), "en vivo"));
    String consulta = Db.newActor(cluster, "CONSULTA");
    api.pedidoAceptado(consulta);

    By detenido = By.cssSelector("#detenidos [data-actor='" + consulta + "']");
    esperar(Duration.ofSeconds(15)).until(ExpectedConditions.presenceOfElementLocated(
      By.cssSelector("#detenidos [data-actor='" + consulta + "'] .reaccion[data-paso='NOTIFICADA']")));
    String texto = driver.findElement(detenido).getText();
    assertThat(texto).contains("revocado", "bloqueado", "escritura indebida", "detectada", "revocada", "terminada");
    // The B14 alert, live too, with its timeline: detection, the reaction's steps, the area notified.
    esperar(VIVO).until(ExpectedConditions.elementToBeClickable(
      By.cssSelector("#alertas li[data-actor='" + consulta + "'][data-tipo='ACCESO_INDEBIDO']"))).click();
    // t0 is the improper write; then the Detector's detection and every step of the reaction, to the area notified.
    esperar(Duration.ofSeconds(5)).until(d -> pasosHechos().contains("reacción notificada"));
    assertThat(pasosHechos()).containsSubsequence("t0", "detección", "reacción abierta", "revocado", "bloqueado", "compensado")
      .contains("reacción notificada", "notificada al área");
    assertThat(driver.findElements(By.cssSelector("#detalle-alerta li.pendiente"))).as("no step left without its time").isEmpty();
    assertThat(texto).contains("escrita", "bloqueada", "compensada");
    chromium.screenshot("seguridad");

    WebElement tarjeta = driver.findElement(detenido);
    tarjeta.findElement(By.className("motivo-levantamiento")).sendKeys("revisado con el vendedor");
    tarjeta.findElement(By.className("levantar")).click();
    await("the lift recorded").atMost(Duration.ofSeconds(10)).until(() -> Db.count(cluster,
      "SELECT count(*) FROM seguridad.levantamientos WHERE actor = ? AND motivo = 'revisado con el vendedor'", consulta) == 1);
    sinErrores("seguridad tras levantar");
  }

  @Test
  @Order(3)
  @DisplayName("a stage stopped: its items appear in the Bandeja; the operator retries one (the stage comes back) and closes the other with a reason")
  void bandeja() throws Exception {
    String vendedor = Db.newActor(cluster, "VENDEDOR");
    String reintentado = api.pedidoAceptado(vendedor);
    entrar(Db.newActor(cluster, "OPERADOR"));
    // The first item arrives while the page is open: it appears without reload.
    By itemReintentado = By.cssSelector("#bandeja [data-pedido='" + reintentado + "'][data-tipo='ESCALADA']");
    esperar(Duration.ofSeconds(30)).until(ExpectedConditions.presenceOfElementLocated(itemReintentado));
    String cerrado = api.pedidoAceptado(vendedor);
    By itemCerrado = By.cssSelector("#bandeja [data-pedido='" + cerrado + "'][data-tipo='ESCALADA']");
    esperar(Duration.ofSeconds(30)).until(ExpectedConditions.presenceOfElementLocated(itemCerrado));

    new org.openqa.selenium.support.ui.Select(driver.findElement(By.id("filtro-etapa"))).selectByValue("INVENTARIO");
    assertThat(driver.findElements(itemReintentado)).isEmpty();
    new org.openqa.selenium.support.ui.Select(driver.findElement(By.id("filtro-etapa"))).selectByValue("FACTURACION");
    driver.findElement(itemReintentado).findElement(By.className("ver-cadena")).click();
    esperar(Duration.ofSeconds(10)).until(ExpectedConditions.presenceOfElementLocated(
      By.cssSelector("#detalle-item .etapa[data-etapa='FACTURACION'][data-estado='ESCALADA']")));
    assertThat(driver.findElement(By.id("detalle-item")).getText())
      .contains("FACTURACION señal (intento 1)", "FACTURACION reintento", "FACTURACION escalada publicada");
    String operador = api.token(Db.newActor(cluster, "OPERADOR"));
    JsonObject etapa = Http.get(app.gatewayUrl() + "/v1/bandeja/" + driver.findElement(itemReintentado).getAttribute("data-item")
      + "/cadena", operador).json().getJsonArray("etapas").getJsonObject(0);
    assertThat(etapa.getString("plazo")).isNotNull();
    assertThat(etapa.getJsonArray("senales")).isNotEmpty();
    chromium.screenshot("bandeja");

    // Closed with a reason before Facturación comes back (its late confirmation would close the item itself).
    WebElement item = driver.findElement(itemCerrado);
    item.findElement(By.className("motivo-cierre")).sendKeys("pedido duplicado, atendido por teléfono");
    item.findElement(By.className("cerrar")).click();
    esperar(Duration.ofSeconds(10)).until(ExpectedConditions.numberOfElementsToBe(itemCerrado, 0));
    List<JsonObject> cerrados = api.bandeja(Db.newActor(cluster, "OPERADOR"), "CERRADO");
    assertThat(cerrados).filteredOn(i -> cerrado.equals(i.getString("pedido")))
      .singleElement().satisfies(i -> assertThat(i.getString("cierre")).startsWith("pedido duplicado, atendido por teléfono"));

    // Retried: the item waits in sight as REINTENTADO, no longer retryable; Facturación back, the stage confirms, the
    // chain reaches LISTO and the item closes itself. (An escalation of the new attempt while Facturación starts is
    // another item, which closes itself on the late confirmation.)
    WebElement escalado = driver.findElement(itemReintentado);
    String id = escalado.getAttribute("data-item");
    By mismoItem = By.cssSelector("#bandeja [data-item='" + id + "']");
    escalado.findElement(By.className("reintentar")).click();
    WebElement esperando = esperar(Duration.ofSeconds(10)).until(ExpectedConditions.presenceOfElementLocated(
      By.cssSelector("#bandeja [data-item='" + id + "'][data-estado='REINTENTADO']")));
    assertThat(esperando.findElements(By.className("reintentar"))).isEmpty();
    assertThat(itemBandeja(id).getString("estado")).isEqualTo("REINTENTADO");
    facturacion = RunningApp.start(SharedInfra.process(cluster, Map.of()), EnumSet.of(Role.FACTURACION));
    await("the retried stage back and the chain LISTO").atMost(CADENA)
      .until(() -> estadoCadena(vendedor, reintentado), "LISTO"::equals);
    esperar(Duration.ofSeconds(10)).until(ExpectedConditions.numberOfElementsToBe(mismoItem, 0));
    JsonObject cerradoSolo = itemBandeja(id);
    assertThat(cerradoSolo.getString("estado")).as("the retried item closed itself").isEqualTo("CERRADO");
    assertThat(cerradoSolo.getString("cierre")).startsWith("reintentado por ").endsWith("la etapa volvió y confirmó");
    esperar(Duration.ofSeconds(30)).until(ExpectedConditions.numberOfElementsToBe(itemReintentado, 0));
    sinErrores("bandeja");
  }

  @Test
  @Order(4)
  @DisplayName("a vendedor places an order on its page and watches it reach LISTO, with its invoice; the page fits a phone")
  void misPedidosHastaListo() {
    String vendedor = Db.newActor(cluster, "VENDEDOR");
    entrar(vendedor);
    driver.findElement(By.id("nuevo-cantidad")).clear();
    driver.findElement(By.id("nuevo-cantidad")).sendKeys("2");
    driver.findElement(By.id("crear-pedido")).click();
    WebElement pedido = esperar(CADENA).until(ExpectedConditions.presenceOfElementLocated(
      By.cssSelector("#pedidos .pedido[data-estado='LISTO']")));
    assertThat(pedido.findElements(By.cssSelector(".etapa[data-estado='COMPLETADA']"))).hasSize(3);
    assertThat(pedido.findElement(By.className("factura")).getText()).contains("2 unidades");
    assertThat(Http.get(app.gatewayUrl() + "/v1/pedidos?actor=me", api.token(vendedor)).json().getJsonArray("pedidos")).hasSize(1);

    driver.manage().window().setSize(new org.openqa.selenium.Dimension(412, 915));
    Object desborda = ((org.openqa.selenium.JavascriptExecutor) driver)
      .executeScript("return document.documentElement.scrollWidth > window.innerWidth");
    assertThat(desborda).as("horizontal scroll at phone width").isEqualTo(false);
    chromium.screenshot("pedidos-telefono");
    driver.manage().window().setSize(new org.openqa.selenium.Dimension(1200, 1000));
    chromium.screenshot("pedidos");
    sinErrores("pedidos");

    driver.get(app.gatewayUrl() + "/consola/#/asr");
    // ASR-1 and ASR-2 were measured in this process by the scenarios above.
    esperar(Duration.ofSeconds(10)).until(ExpectedConditions.textMatches(By.cssSelector(".asr-valor[data-asr='asr1']"), java.util.regex.Pattern.compile("p99 \\d")));
    esperar(Duration.ofSeconds(10)).until(ExpectedConditions.textMatches(By.cssSelector(".asr-valor[data-asr='asr2']"), java.util.regex.Pattern.compile("p99 \\d")));
    esperar(Duration.ofSeconds(10)).until(ExpectedConditions.textMatches(By.id("rendimiento"), java.util.regex.Pattern.compile("peticiones/s")));
    chromium.screenshot("asr");
    sinErrores("asr");
  }

  @Test
  @Order(5)
  @DisplayName("a revoked vendedor's page says why it is refused")
  void vendedorRevocado() {
    String vendedor = Db.newActor(cluster, "VENDEDOR");
    Db.update(cluster, "INSERT INTO seguridad.lista_revocacion (actor, revocado_en, vence_en, motivo, id_escritura) "
      + "VALUES (?, now(), now() + interval '1 hour', 'prueba de la consola', gen_random_uuid())", vendedor);
    entrar(vendedor);
    WebElement error = esperar(Duration.ofSeconds(10)).until(ExpectedConditions.visibilityOfElementLocated(By.id("error")));
    assertThat(error.getText()).contains("Su acceso está revocado", vendedor, "revocation list");
    assertThat(error.getAttribute("data-codigo")).isEqualTo("actor_revoked");
    chromium.screenshot("vendedor-revocado");
    // The refused calls themselves are what the browser logs here; nothing else may be.
    assertThat(chromium.consoleErrors()).allMatch(e -> e.contains("403"));
  }

  @Test
  @Order(6)
  @DisplayName("production sign-in: the page signs in at the configured OIDC issuer (code + PKCE) and its token opens /v1")
  void accesoOidc() throws Exception {
    String vendedor = Db.newActor(cluster, "VENDEDOR");
    try (ProveedorOidc proveedor = ProveedorOidc.start(app.app().vertx(), TestTokens.devIssuer(app.app().vertx()));
         RunningApp puerta = RunningApp.start(SharedInfra.process(cluster, Map.of("gateway.port", SharedInfra.freePort(),
           "consola.oidc.issuer", proveedor.url())), EnumSet.of(Role.GATEWAY))) {
      proveedor.siguiente(vendedor, "VENDEDOR");
      driver.get(puerta.gatewayUrl() + "/consola/");
      esperar(Duration.ofSeconds(15)).until(ExpectedConditions.elementToBeClickable(By.id("entrar-oidc"))).click();
      esperar(Duration.ofSeconds(15)).until(ExpectedConditions.textToBePresentInElementLocated(By.id("quien"), vendedor + " · VENDEDOR"));
      assertThat(driver.getCurrentUrl()).as("the code is not left in the address").doesNotContain("code=");
      esperar(Duration.ofSeconds(10)).until(ExpectedConditions.textToBePresentInElementLocated(By.id("pedidos"), "Aún no tiene pedidos"));
      sinErrores("mis pedidos tras el acceso OIDC");
      salir();
    }
  }

  @Test
  @Order(7)
  @DisplayName("an area member revoked while the Seguridad page is open: its live feed is cut and the page says why")
  void seguridadRevocadaConLaPaginaAbierta() {
    String area = Db.newActor(cluster, "SEGURIDAD");
    entrar(area);
    esperar(Duration.ofSeconds(10)).until(ExpectedConditions.textToBe(By.id("estado-flujo"), "en vivo"));
    Db.update(cluster, "INSERT INTO seguridad.lista_revocacion (actor, revocado_en, vence_en, motivo, id_escritura) "
      + "VALUES (?, now(), now() + interval '1 hour', 'prueba de la consola', gen_random_uuid())", area);
    WebElement error = esperar(VIVO).until(ExpectedConditions.visibilityOfElementLocated(By.id("error")));
    assertThat(error.getAttribute("data-codigo")).isEqualTo("actor_revoked");
    // The error may first come from the page's own reload of the revocations, which the feed's event of this very
    // revocation starts: the feed is cut a moment later.
    esperar(VIVO).until(ExpectedConditions.textToBe(By.id("estado-flujo"), "cortado"));
    sinErrores("seguridad revocada");
  }

  /** Signs in through the page's development sign-in, as a person would. */
  private static void entrar(String actor) {
    driver.get(app.gatewayUrl() + "/consola/");
    WebElement campo = esperar(Duration.ofSeconds(15)).until(ExpectedConditions.elementToBeClickable(By.id("actor-desarrollo")));
    campo.sendKeys(actor);
    driver.findElement(By.id("entrar-desarrollo")).click();
    esperar(Duration.ofSeconds(15)).until(ExpectedConditions.textToBePresentInElementLocated(By.id("quien"), actor));
  }

  private static WebDriverWait esperar(Duration plazo) {
    return new WebDriverWait(driver, plazo, Duration.ofMillis(100));
  }

  /**
   * The alert timeline's steps that have their time, in the order the page shows them, read in one script: the page
   * draws the timeline again once it has the alert as the system has it now.
   */
  @SuppressWarnings("unchecked")
  private static List<String> pasosHechos() {
    return (List<String>) ((org.openqa.selenium.JavascriptExecutor) driver).executeScript(
      "return [...document.querySelectorAll('#detalle-alerta .linea-tiempo li.hecho')].map((li) => li.dataset.paso)");
  }

  private static void sinErrores(String pagina) {
    assertThat(chromium.consoleErrors()).as("console errors on " + pagina).isEmpty();
  }

  private static JsonObject itemBandeja(String id) {
    Http.Response item = Http.get(app.gatewayUrl() + "/v1/bandeja/" + id, api.token(Db.newActor(cluster, "OPERADOR")));
    assertThat(item.status()).as(item.body()).isEqualTo(200);
    return item.json();
  }

  private static String estadoCadena(String vendedor, String pedido) {
    JsonObject leido = api.leerPedido(vendedor, pedido);
    return leido.getJsonObject("cadena") == null ? null : leido.getJsonObject("cadena").getString("estado");
  }
}
