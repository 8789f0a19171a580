package ccp.app;

import ccp.platform.http.Jwks;
import ccp.platform.infra.DevPeerKeys;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine.Command;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.Callable;

/**
 * {@code k8s-secrets}: prints, as one Kubernetes {@code List} for {@code kubectl create -f -}, what {@code k8s/} reads
 * and no file may hold, each freshly made: every role's database password ({@code ccp-pg-<role>}, which CloudNativePG
 * sets on the role it manages), seguridad's peer key ({@code ccp-peer-seguridad}) with its public JWK Set for the
 * roles it calls ({@code ccp-peer-jwks}), and the Shared Signals transmitter's key ({@code ccp-ssf-transmisor}). The
 * Kafka passwords are not here: Strimzi's User Operator makes them. Nothing is written to disk.
 */
@Command(name = "k8s-secrets", mixinStandardHelpOptions = true,
  description = "Print the Kubernetes Secrets and ConfigMap of keys and passwords that k8s/ reads, newly generated, for kubectl create -f -.")
public final class SecretsCommand implements Callable<Integer> {

  /** The Shared Signals transmitter's key id, which receivers find in its JWK Set. */
  static final String SSF_KID = "ccp-ssf-1";

  private static final SecureRandom RANDOM = new SecureRandom();

  @Override
  public Integer call() {
    System.out.println(manifests().encodePrettily());
    return 0;
  }

  /** The {@code List} of Secrets and the ConfigMap, with keys and passwords made now. */
  public static JsonObject manifests() {
    JsonArray items = new JsonArray();
    for (Role role : Role.values()) {
      JsonObject secret = secret("ccp-pg-" + role.id(), "kubernetes.io/basic-auth",
        new JsonObject().put("username", role.id()).put("password", password()));
      // CloudNativePG applies a changed password without a restart when the Secret carries this label.
      secret.getJsonObject("metadata").put("labels", new JsonObject().put("cnpg.io/reload", "true"));
      items.add(secret);
    }
    String caller = DevPeerKeys.CALLER;
    JsonObject peer = Jwks.generateEs256(caller);
    items.add(secret("ccp-peer-" + caller, "Opaque", new JsonObject().put("jwk", peer.encode())));
    items.add(new JsonObject().put("apiVersion", "v1").put("kind", "ConfigMap")
      .put("metadata", new JsonObject().put("name", "ccp-peer-jwks"))
      .put("data", new JsonObject().put("jwks", new JsonObject().put("keys", new JsonArray().add(Jwks.publicPart(peer))).encode())));
    items.add(secret("ccp-ssf-transmisor", "Opaque", new JsonObject().put("jwk", Jwks.generateRs256(SSF_KID).encode())));
    return new JsonObject().put("apiVersion", "v1").put("kind", "List").put("items", items);
  }

  private static JsonObject secret(String name, String type, JsonObject stringData) {
    return new JsonObject().put("apiVersion", "v1").put("kind", "Secret").put("metadata", new JsonObject().put("name", name))
      .put("type", type).put("stringData", stringData);
  }

  /** 256 random bits, base64url: letters, digits, '-' and '_', safe in a connection string. */
  private static String password() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
