package ccp.platform.kafka;

import ccp.app.Role;
import ccp.embedded.EmbeddedKafka;
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
    EmbeddedKafka broker = EmbeddedKafka.start(dir, port);
    try (RunningApp app = RunningApp.start(SharedInfra.settings(Map.of("kafka.bootstrap", broker.bootstrap())),
      Set.of(Role.FACTURACION))) {
      String ready = app.managementUrl() + "/health/ready";
      await("ready with its broker up").atMost(Duration.ofSeconds(30)).until(() -> Http.get(ready, null).status(), s -> s == 200);
      assertThat(kafkaCheck(Http.get(ready, null)).getString("status")).isEqualTo("UP");

      broker.close();
      Http.Response down = await("not ready once its broker is gone").atMost(Duration.ofSeconds(30))
        .until(() -> Http.get(ready, null), r -> r.status() == 503);
      assertThat(kafkaCheck(down).getString("status")).isEqualTo("DOWN");

      broker = EmbeddedKafka.start(dir, port);
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
