package ccp.platform.config;

import ccp.support.SharedInfra;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@DisplayName("Settings: conf/ccp.json defaults, CCP_* overrides, validation that names the problem")
class SettingsTest {

  private static JsonObject file() throws Exception {
    return new JsonObject(Files.readString(Path.of("conf/ccp.json")));
  }

  @Test
  @DisplayName("the committed defaults are valid, carry the view's ASR-1 budget and use the embedded infrastructure")
  void defaultsAreValid() {
    Settings settings = SharedInfra.defaults();
    assertThat(settings.integer("asr1.budget-ms")).isEqualTo(2000);
    assertThat(settings.embeddedKafka()).isTrue();
    assertThat(settings.embeddedPostgres()).isTrue();
  }

  @Test
  @DisplayName("an environment variable CCP_<KEY> overrides its key, typed")
  void environmentOverrides() throws Exception {
    Settings settings = Settings.from(file(), Map.of("CCP_PG_POOL_SIZE", "32", "CCP_DEMO_SEED", "false",
      "CCP_KAFKA_BOOTSTRAP", "broker:9092", "HOME", "/root", "GESTOR_PORT", "tcp://10.0.0.1:8081"));
    assertThat(settings.integer("pg.pool-size")).isEqualTo(32);
    assertThat(settings.flag("demo.seed")).isFalse();
    assertThat(settings.embeddedKafka()).isFalse();
    assertThat(settings.integer("gestor.port")).isEqualTo(8081);
  }

  @Test
  @DisplayName("a kubelet's service links of a Service ccp-<x> are left alone, even where one has a setting's name; a misspelt setting is still refused")
  void serviceLinks() throws Exception {
    Map<String, String> links = new HashMap<>(Map.of(
      "CCP_GESTOR_SERVICE_HOST", "10.96.0.11", "CCP_GESTOR_SERVICE_PORT", "8081", "CCP_GESTOR_SERVICE_PORT_HTTP", "8081",
      "CCP_GESTOR_PORT", "tcp://10.96.0.11:8081", "CCP_GESTOR_PORT_8081_TCP", "tcp://10.96.0.11:8081",
      "CCP_GESTOR_PORT_8081_TCP_PROTO", "tcp", "CCP_GESTOR_PORT_8081_TCP_PORT", "8081", "CCP_GESTOR_PORT_8081_TCP_ADDR", "10.96.0.11",
      "CCP_PG_RW_SERVICE_HOST", "fd00::5", "CCP_PG_RW_PORT", "tcp://[fd00::5]:5432"));
    links.put("CCP_PG_RW_PORT_5432_TCP_ADDR", "fd00::5");
    // gestor.port is CCP_GESTOR_PORT: the kubelet's value is never a port number, the setting keeps its own.
    assertThat(Settings.from(file(), links).integer("gestor.port")).isEqualTo(8081);

    for (Map.Entry<String, String> typo : Map.of(
      "CCP_GESTOR_SERVICE_PORT_HTTP", "http",            // not a port number
      "CCP_GESTOR_PORT", "tcp://10.96.0.12:8081",         // another host than the Service's: gestor.port, not a number
      "CCP_GESTOR_PORT_8081_TCP_PORT", "8082",            // another port than its name's
      "CCP_GESTORR_SERVICE_PORT", "8081",                 // no such Service: no _SERVICE_HOST beside it
      "CCP_PG_POOL_SIZ", "12").entrySet()) {
      Map<String, String> env = new HashMap<>(links);
      env.put(typo.getKey(), typo.getValue());
      assertThatThrownBy(() -> Settings.from(file(), env)).as(typo.toString())
        .isInstanceOf(ConfigException.class).hasMessageContaining(typo.getKey());
    }
  }

  @Test
  @DisplayName("an issuer that is still a placeholder (a name reserved for examples) is refused, naming its variable")
  void placeholderIssuers() throws Exception {
    for (Map.Entry<String, String> placeholder : Map.of(
      "CCP_JWT_ISSUER", "https://keycloak.example.com/realms/ccp", "CCP_CONSOLA_OIDC_ISSUER", "https://sso.example.org/realms/ccp",
      "CCP_SSF_ISSUER", "https://ccp.invalid").entrySet()) {
      assertThatThrownBy(() -> Settings.from(file(), Map.ofEntries(placeholder))).isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(placeholder.getKey() + "='" + placeholder.getValue() + "' is a placeholder");
    }
    assertThat(Settings.from(file(), Map.of("CCP_JWT_ISSUER", "https://sso.empresa.co/realms/ccp",
      "CCP_SSF_ISSUER", "https://ccp.empresa.co")).text("ssf.issuer")).isEqualTo("https://ccp.empresa.co");
  }

  @Test
  @DisplayName("bad values, unknown keys and unknown CCP_ variables are refused with a message naming them")
  void badValuesAreNamed() throws Exception {
    JsonObject file = file();
    assertThatThrownBy(() -> Settings.from(file, Map.of("CCP_PG_PORT", "abc")))
      .isInstanceOf(ConfigException.class).hasMessageContaining("CCP_PG_PORT").hasMessageContaining("not a number");
    assertThatThrownBy(() -> Settings.from(file, Map.of("CCP_PG_POOL_SIZE", "0")))
      .hasMessageContaining("pg.pool-size").hasMessageContaining("from 1 to 512");
    assertThatThrownBy(() -> Settings.from(file, Map.of("CCP_JWT_JWKS_URL", "keys.json")))
      .hasMessageContaining("jwt.jwks-url").hasMessageContaining("http(s) URL");
    assertThatThrownBy(() -> Settings.from(file, Map.of("CCP_JWT_TTL_MINUTES", "90", "CCP_JWT_MAX_TTL_MINUTES", "60")))
      .hasMessageContaining("jwt.ttl-minutes must be <= jwt.max-ttl-minutes");
    assertThatThrownBy(() -> Settings.from(file, Map.of("CCP_JWT_SECRET", "a-shared-secret-of-at-least-32-characters")))
      .hasMessageContaining("unknown environment variable CCP_JWT_SECRET");
    assertThatThrownBy(() -> Settings.from(file, Map.of("CCP_SSF_RECEPTOR_JWKS_URL", "ftp://x")))
      .hasMessageContaining("ssf.receptor.jwks-url");
    assertThatThrownBy(() -> Settings.from(file, Map.of("CCP_SSF_ISSUER", "https://ccp.example.com/")))
      .hasMessageContaining("ssf.issuer");
    assertThatThrownBy(() -> Settings.from(file, Map.of("CCP_SSF_RECEPTOR_JWKS_URL", "https://idp.example.com/jwks")))
      .hasMessageContaining("ssf.receptor.issuer and ssf.receptor.audience must be set");
    assertThatThrownBy(() -> Settings.from(file, Map.of("CCP_TYPO", "1")))
      .hasMessageContaining("unknown environment variable CCP_TYPO").hasMessageContaining("CCP_PG_HOST");
    assertThatThrownBy(() -> Settings.from(file.copy().put("pg.hots", "x"), Map.of()))
      .hasMessageContaining("unknown configuration key 'pg.hots'").hasMessageContaining("pg.host");
    assertThatThrownBy(() -> Settings.from(file.copy().put("pg.port", "5432"), Map.of()))
      .hasMessageContaining("pg.port='5432' is invalid");
  }

  @Test
  @DisplayName("CCP_PORTS_OFFSET moves every port of the all-in-one; the role URLs and ssf.issuer follow their ports unless set")
  void puertosDesplazados() throws Exception {
    Settings settings = Settings.from(file(), Map.of("CCP_PORTS_OFFSET", "1000", "CCP_CADENA_PORT", "7000",
      "CCP_INVENTARIO_URL", "http://inventario.example.test:8085"));
    assertThat(settings.integer("gateway.port")).isEqualTo(9080);
    assertThat(settings.integer("management.port")).isEqualTo(10090);
    assertThat(settings.integer("infra.kafka-port")).isEqualTo(20092);
    assertThat(settings.integer("infra.pg-port")).isEqualTo(16432);
    assertThat(settings.integer("infra.issuer-port")).isEqualTo(20093);
    assertThat(settings.integer("pg.port")).as("an external PostgreSQL's port does not move").isEqualTo(5432);
    assertThat(settings.integer("cadena.port")).as("a port set itself").isEqualTo(7000);
    assertThat(settings.text("gestor.url")).isEqualTo("http://127.0.0.1:9081");
    assertThat(settings.text("seguridad.url")).isEqualTo("http://127.0.0.1:9082");
    assertThat(settings.text("pedidos.url")).isEqualTo("http://127.0.0.1:9083");
    assertThat(settings.text("cadena.url")).as("follows the port set").isEqualTo("http://127.0.0.1:7000");
    assertThat(settings.text("inventario.url")).as("a URL set itself").isEqualTo("http://inventario.example.test:8085");
    assertThat(settings.text("ssf.issuer")).isEqualTo("http://127.0.0.1:9080");

    Settings sinDesplazar = Settings.from(file(), Map.of("CCP_GESTOR_PORT", "18081", "CCP_GATEWAY_PORT", "18080"));
    assertThat(sinDesplazar.text("gestor.url")).as("a role's port moved alone takes its URL along").isEqualTo("http://127.0.0.1:18081");
    assertThat(sinDesplazar.text("ssf.issuer")).isEqualTo("http://127.0.0.1:18080");
    assertThat(sinDesplazar.text("pedidos.url")).isEqualTo("http://127.0.0.1:8083");
    assertThatThrownBy(() -> Settings.from(file(), Map.of("CCP_PORTS_OFFSET", "50000")))
      .hasMessageContaining("ports.offset=50000 moves infra.kafka-port (19092) past 65535");
  }
}
