package ccp.platform.infra;

import ccp.app.KafkaAccess;
import ccp.embedded.EmbeddedKafka;
import ccp.platform.config.Settings;
import ccp.platform.kafka.KafkaCredentials;
import ccp.platform.kafka.Topics;
import ccp.support.SharedInfra;
import ccp.support.Topic;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@DisplayName("The embedded broker's log and its credentials in the data directory")
class EmbeddedKafkaLogTest {

  @Test
  @DisplayName("a log formatted without the credentials file (before SASL) is moved aside, and a new one serves the roles")
  void logWithoutCredentialsIsSetAside() throws Exception {
    Path dir = Files.createTempDirectory("ccp-kafka-log");
    // What an earlier run left: a formatted log whose users no one here knows.
    EmbeddedKafka.start(dir.resolve("kafka"), 0, "unknown", Map.of()).close();
    Settings own = SharedInfra.settings(Map.of("data.dir", dir.toString(), "kafka.bootstrap", ""));

    try (Infrastructure broker = Infrastructure.start(own, SharedInfra.EMBEDDED, KafkaAccess.grants())) {
      List<Path> aside;
      try (Stream<Path> files = Files.list(dir)) {
        aside = files.filter(f -> f.getFileName().toString().startsWith("kafka-without-credentials-")).toList();
      }
      assertThat(aside).singleElement().satisfies(old -> assertThat(old.resolve("meta.properties")).exists());
      assertThat(KafkaCredentials.read(dir).roles()).containsKeys("gestor", "seguridad", "pedidos", "vigilancia");

      String marca = UUID.randomUUID().toString();
      Topic.send(broker.settings(), Topics.SESION_ABIERTA, marca, "{}");
      assertThat(Topic.read(broker.settings(), Topics.SESION_ABIERTA, r -> marca.equals(r.key()))).hasSize(1);
    }
  }

  @Test
  @DisplayName("a broker that cannot start: its own failure is what the start throws")
  void aBrokerThatFailsSaysWhy() throws Exception {
    Path dir = Files.createTempDirectory("ccp-kafka-fails");
    Settings own = SharedInfra.settings(Map.of("data.dir", dir.toString(), "kafka.bootstrap", ""));
    LocalServers failing = new LocalServers(SharedInfra.EMBEDDED.postgres(), (log, port, admin, users) -> {
      throw new IOException("the broker's port is taken");
    });

    assertThatThrownBy(() -> Infrastructure.start(own, failing, KafkaAccess.grants()))
      .isInstanceOf(IOException.class).hasMessage("the broker's port is taken");
  }
}
