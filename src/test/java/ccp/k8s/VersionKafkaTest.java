package ccp.k8s;

import ccp.embedded.EmbeddedKafka;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.AppInfoParser;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.JarFile;

import static ccp.k8s.Manifests.str;
import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("The Kafka that Kubernetes runs is the one every test runs")
class VersionKafkaTest {

  @Test
  @DisplayName("the Kafka resource pins the embedded broker's release, which is also the clients', and the metadata version it is formatted with")
  void oneKafkaEverywhere() throws IOException, URISyntaxException {
    Map<String, Object> kafka = Manifests.load(Manifests.K8S.resolve("kafka.yaml")).stream()
      .filter(doc -> "Kafka".equals(doc.kind())).findFirst().orElseThrow().body();
    String broker = release(KafkaRaftServer.class);

    assertThat(broker).as("the embedded broker's release").isEqualTo(AppInfoParser.getVersion());
    assertThat(str(kafka, "spec", "kafka", "version")).as("spec.kafka.version").isEqualTo(broker);
    assertThat(str(kafka, "spec", "kafka", "metadataVersion")).as("spec.kafka.metadataVersion")
      .isEqualTo(EmbeddedKafka.METADATA_VERSION.version());
  }

  /** The release written in the manifest of the jar that holds {@code type}. */
  private static String release(Class<?> type) throws IOException, URISyntaxException {
    Path jar = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    try (JarFile file = new JarFile(jar.toFile())) {
      return file.getManifest().getMainAttributes().getValue("Version");
    }
  }
}
