package ccp.platform.kafka;

import ccp.app.KafkaAccess;
import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.platform.infra.Infrastructure;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("Readiness follows the broker, not only the consumer groups joined while it was up")
class BrokerHealthTest {

  @Test
  @DisplayName("a process whose broker goes away is not ready until the broker is back")
  void readinessFollowsTheBroker() throws Exception {
    Path dir = Files.createTempDirectory("ccp-broker-health");
    int port = SharedInfra.freePort();
    // A broker of its own, with its own credentials, topics and ACLs, beside the shared database.
    Settings own = SharedInfra.settings(Map.of("data.dir", dir.toString(), "kafka.bootstrap", ""));
    Infrastructure broker = Infrastructure.start(own, SharedInfra.EMBEDDED, KafkaAccess.grants(), port, 0, 0);
    try (RunningApp app = RunningApp.start(broker.settings(), Set.of(Role.FACTURACION))) {
      String ready = app.managementUrl() + "/health/ready";
      await("ready with its broker up").atMost(Duration.ofSeconds(30)).until(() -> Http.get(ready, null).status(), s -> s == 200);
      assertThat(kafkaCheck(Http.get(ready, null)).getString("status")).isEqualTo("UP");

      broker.close();
      Http.Response down = await("not ready once its broker is gone").atMost(Duration.ofSeconds(30))
        .until(() -> Http.get(ready, null), r -> r.status() == 503);
      assertThat(kafkaCheck(down).getString("status")).isEqualTo("DOWN");

      broker = Infrastructure.start(own, SharedInfra.EMBEDDED, KafkaAccess.grants(), port, 0, 0);
      await("ready again with its broker back").atMost(Duration.ofSeconds(60)).until(() -> Http.get(ready, null).status(), s -> s == 200);
    } finally {
      broker.close();
    }
  }

  private static JsonObject kafkaCheck(Http.Response response) {
    JsonArray checks = response.json().getJsonArray("checks");
    for (int i = 0; i < checks.size(); i++) {
      if ("kafka".equals(checks.getJsonObject(i).getString("id"))) return checks.getJsonObject(i);
    }
    throw new AssertionError("no kafka check in " + response.body());
  }
}
