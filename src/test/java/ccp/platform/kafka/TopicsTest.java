package ccp.platform.kafka;

import ccp.platform.config.Settings;
import ccp.support.SharedInfra;
import ccp.support.Topic;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("Topics: the broker's operator creates the missing topics and grows the ones with fewer partitions")
class TopicsTest {

  /** As a data directory made before escritura.realizada had the chain's P partitions: it is grown at the next start. */
  @Test
  @DisplayName("a topic with fewer partitions than the code asks for is grown; one with more is left as it is")
  void growsNeverShrinks() throws Exception {
    Settings settings = SharedInfra.settings();
    String name = "test.topics-" + UUID.randomUUID();
    try (Admin admin = Admin.create(Map.<String, Object>copyOf(Topic.admin(settings)))) {
      try {
        Topics.ensure(admin, Map.of(name, 1), (short) 1);
        assertThat(partitions(admin, name)).isEqualTo(1);

        Topics.ensure(admin, Map.of(name, 4), (short) 1);
        assertThat(partitions(admin, name)).isEqualTo(4);

        Topics.ensure(admin, Map.of(name, 2), (short) 1);
        assertThat(partitions(admin, name)).isEqualTo(4);
      } finally {
        admin.deleteTopics(List.of(name)).all().get(30, TimeUnit.SECONDS);
      }
    }
  }

  private static int partitions(Admin admin, String name) throws Exception {
    return admin.describeTopics(List.of(name)).allTopicNames().get(30, TimeUnit.SECONDS).get(name).partitions().size();
  }
}
