package ccp.platform.config;

import ccp.support.SharedInfra;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
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
