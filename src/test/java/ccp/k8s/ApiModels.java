package ccp.k8s;

import ccp.k8s.Manifests.Doc;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.MapperConfig;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.PodMonitor;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.strimzi.api.kafka.model.kafka.Kafka;
import io.strimzi.api.kafka.model.nodepool.KafkaNodePool;
import io.strimzi.api.kafka.model.topic.KafkaTopic;
import io.strimzi.api.kafka.model.user.KafkaUser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The rendered manifests read into the real models of their APIs, as the API server would read them: fabric8's
 * Kubernetes model for the built-in kinds and its model of the prometheus-operator's PodMonitor and PrometheusRule,
 * Strimzi's own {@code io.strimzi:api} for its kinds, and for CloudNativePG (no model on Maven Central) the structural
 * schema of its CRDs ({@link CrdSchema}). The models keep unknown fields aside (a {@code @JsonAnySetter}, an
 * {@code ignoreUnknown}) where the API server prunes or refuses them; here they are errors, and so is a string where a
 * number goes. A kind with no model here is a finding too: a new kind needs its model first.
 */
final class ApiModels {

  private static final Map<String, Class<?>> MODELS = Map.ofEntries(
    Map.entry("apps/v1 Deployment", Deployment.class),
    Map.entry("v1 Service", Service.class),
    Map.entry("v1 ConfigMap", ConfigMap.class),
    Map.entry("v1 Secret", Secret.class),
    Map.entry("policy/v1 PodDisruptionBudget", PodDisruptionBudget.class),
    Map.entry("autoscaling/v2 HorizontalPodAutoscaler", HorizontalPodAutoscaler.class),
    Map.entry("networking.k8s.io/v1 NetworkPolicy", NetworkPolicy.class),
    Map.entry("networking.k8s.io/v1 Ingress", Ingress.class),
    Map.entry("kafka.strimzi.io/v1 Kafka", Kafka.class),
    Map.entry("kafka.strimzi.io/v1 KafkaNodePool", KafkaNodePool.class),
    Map.entry("kafka.strimzi.io/v1 KafkaTopic", KafkaTopic.class),
    Map.entry("kafka.strimzi.io/v1 KafkaUser", KafkaUser.class),
    Map.entry("monitoring.coreos.com/v1 PodMonitor", PodMonitor.class),
    Map.entry("monitoring.coreos.com/v1 PrometheusRule", PrometheusRule.class));
  private static final Map<String, String> SCHEMAS = Map.of(
    "postgresql.cnpg.io/v1 Cluster", "postgresql.cnpg.io_clusters.json",
    "postgresql.cnpg.io/v1 Database", "postgresql.cnpg.io_databases.json");

  private static final ObjectMapper STRICT = JsonMapper.builder()
    .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
    .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
    .annotationIntrospector(new JacksonAnnotationIntrospector() {
      @Override
      public Boolean hasAnySetter(Annotated annotated) {
        return Boolean.FALSE;
      }

      @Override
      public JsonIgnoreProperties.Value findPropertyIgnoralByName(MapperConfig<?> config, Annotated annotated) {
        return super.findPropertyIgnoralByName(config, annotated).withoutIgnoreUnknown();
      }
    })
    .build();

  private ApiModels() {}

  /** What the APIs would refuse or drop in {@code docs}, one line each naming the document and the field. */
  static List<String> findings(List<Doc> docs) {
    List<String> findings = new ArrayList<>();
    for (Doc doc : docs) {
      String type = doc.body().get("apiVersion") + " " + doc.kind();
      String what = type + " " + doc.name();
      Class<?> model = MODELS.get(type);
      String schema = SCHEMAS.get(type);
      if (model != null) {
        read(doc.body(), model, what, findings);
      } else if (schema != null) {
        read(doc.body().get("metadata"), ObjectMeta.class, what + " metadata", findings);
        try {
          CrdSchema.load(schema).check(doc.body()).forEach(f -> findings.add(what + f));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      } else {
        findings.add(what + ": no model of this kind to check it against (add one to ApiModels)");
      }
    }
    return findings;
  }

  private static void read(Object node, Class<?> model, String what, List<String> findings) {
    try {
      STRICT.convertValue(node, model);
    } catch (IllegalArgumentException e) {
      findings.add(what + ": " + e.getMessage().lines().findFirst().orElse(""));
    }
  }
}
