package ccp.laptop;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.platform.infra.PgCredentials;
import ccp.platform.kafka.KafkaCredentials;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

import static java.nio.file.attribute.PosixFilePermission.OWNER_READ;
import static java.nio.file.attribute.PosixFilePermission.OWNER_WRITE;
import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("infra: the embedded Kafka and PostgreSQL alone, shared by role processes started apart")
class InfraProcessTest {

  @Test
  @DisplayName("the infra process is ready on its management port with a durable database, and a gateway and gestor started on its addresses open a session")
  void roleProcessesUseIt() throws Exception {
    Path dir = Files.createTempDirectory("ccp-infra-test");
    Settings own = SharedInfra.defaults().with(Map.of("data.dir", dir.toString(), "http.host", "127.0.0.1",
      "infra.kafka-port", SharedInfra.freePort(), "infra.pg-port", SharedInfra.freePort(), "infra.issuer-port", SharedInfra.freePort(),
      "management.port", SharedInfra.freePort()));

    try (InfraProcess infra = InfraProcess.start(own)) {
      // Started means its checks passed once; on a loaded machine a later probe may find one past its answer bound.
      Http.ready("http://127.0.0.1:" + infra.managementPort(), Duration.ofSeconds(20));
      assertThat(infra.settings().text("kafka.bootstrap")).isEqualTo("127.0.0.1:" + own.integer("infra.kafka-port"));
      assertThat(infra.settings().integer("pg.port")).isEqualTo(own.integer("infra.pg-port"));
      // The development keys, private to their owner; the issuer's public JWK Set on the fixed port bin/cluster uses.
      for (Path key : new Path[] {dir.resolve("dev-issuer.jwk"), dir.resolve("peer-keys/seguridad.jwk"), dir.resolve("peer-keys/gateway.jwk"),
        dir.resolve("ssf-transmitter.jwk")}) {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key))).as(key.toString()).isEqualTo("rw-------");
      }
      String jwksUrl = "http://127.0.0.1:" + own.integer("infra.issuer-port") + "/jwks.json";
      assertThat(infra.settings().text("jwt.jwks-url")).isEqualTo(jwksUrl);
      Http.Response jwks = Http.get(jwksUrl, null);
      assertThat(jwks.json().getJsonArray("keys")).hasSize(1);
      assertThat(jwks.body()).doesNotContain("\"d\"");
      // What a person runs keeps an answered order across a power loss: PostgreSQL's durable defaults, not the tests'.
      assertThat(Db.strings(infra.settings(), "SELECT setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', "
        + "'full_page_writes') ORDER BY name")).containsExactly("on", "on", "on");

      // What bin/cluster gives a role process: the infra's addresses, the issuer's JWK Set URL, the peer keys, seguridad's
      // Shared Signals key and the roles' Kafka and PostgreSQL passwords (read from the data directory), its own ports.
      String gestorKafka = KafkaCredentials.read(dir).roles().get("gestor");
      String seguridadKafka = KafkaCredentials.read(dir).roles().get("seguridad");
      assertThat(Files.getPosixFilePermissions(dir.resolve(KafkaCredentials.FILE))).containsOnly(OWNER_READ, OWNER_WRITE);
      assertThat(Files.getPosixFilePermissions(dir.resolve(PgCredentials.FILE))).as("only its owner reads the passwords")
        .containsOnly(OWNER_READ, OWNER_WRITE);
      Settings roles = own.with(PgCredentials.inDataDir(dir).settings())
        .with(Map.of("kafka.bootstrap", infra.settings().text("kafka.bootstrap"), "pg.host", "127.0.0.1",
          "pg.port", infra.settings().integer("pg.port"), "jwt.jwks-url", jwksUrl,
          "peer.jwks", Files.readString(dir.resolve("peer-keys/jwks.json")),
          "peer.private-key", Files.readString(dir.resolve("peer-keys/seguridad.jwk")),
          "ssf.private-key", Files.readString(dir.resolve("ssf-transmitter.jwk")),
          "kafka.password.gestor", gestorKafka, "kafka.password.seguridad", seguridadKafka))
        .with(Map.of("gateway.port", SharedInfra.freePort(), "gestor.port", SharedInfra.freePort(),
          "seguridad.port", SharedInfra.freePort(), "management.port", SharedInfra.freePort(), "http.instances", 1));
      // The gateway reads the Lista de revocación, which the seguridad role's migrations create: it runs too, as in bin/cluster.
      try (RunningApp app = RunningApp.start(roles, Set.of(Role.GATEWAY, Role.GESTOR, Role.SEGURIDAD))) {
        String token = TestTokens.devIssuer(app.app().vertx(), dir).valid("vendedor-7", "VENDEDOR");
        // Ready once the Verificador has checked the warm-up's sessions, or after 10 s all the same: on a busy machine it may
        // still run behind, and the door then refuses with Retry-After, which the App honours.
        Http.Response opened = Http.asAClient(
          () -> Http.post(app.gatewayUrl() + "/v1/sesiones", token, "{\"huella\":\"telefono-infra\"}"), Duration.ofSeconds(30));
        assertThat(opened.status()).as(opened.body()).isEqualTo(201);
      }
    }
  }
}
