package ccp.platform.infra;

import ccp.platform.http.Jwks;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The roles' own keys for role-to-role calls on a laptop run: one private JWK per process group (kid = its id) in
 * {@code <data.dir>/peer-keys/<role>.jwk} (mode 600), made once, and their public JWK Set {@code peer-keys/jwks.json},
 * what Kubernetes holds in the Secrets {@code ccp-peer-<role>} and the ConfigMap {@code ccp-peer-jwks}. Every role has a
 * key; which may call where is the receiving endpoint's rule.
 */
public final class DevPeerKeys {

  public static final String DIR = "peer-keys";
  public static final String JWKS_FILE = "jwks.json";
  /** The process groups, as {@code ccp.app.Role} names them. */
  public static final List<String> ROLES =
    List.of("gateway", "gestor", "seguridad", "pedidos", "cadena", "facturacion", "inventario", "despacho", "vigilancia");
  /** The one role that calls others today (the Detector and the Reacción): the all-in-one process signs as it. */
  public static final String CALLER = "seguridad";

  private final Map<String, JsonObject> privateKeys;
  private final JsonObject jwks;

  private DevPeerKeys(Map<String, JsonObject> privateKeys, JsonObject jwks) {
    this.privateKeys = privateKeys;
    this.jwks = jwks;
  }

  /** The keys in {@code dataDir}, each made the first time it is missing. */
  public static DevPeerKeys ensure(Path dataDir) throws IOException {
    Path dir = dataDir.resolve(DIR);
    Map<String, JsonObject> keys = new LinkedHashMap<>();
    JsonArray published = new JsonArray();
    for (String role : ROLES) {
      JsonObject key = Jwks.createOnce(dir.resolve(role + ".jwk"), Jwks.generateEs256(role));
      keys.put(role, key);
      published.add(Jwks.publicPart(key));
    }
    JsonObject jwks = Jwks.createOnce(dir.resolve(JWKS_FILE), new JsonObject().put("keys", published));
    return new DevPeerKeys(keys, jwks);
  }

  public JsonObject privateKey(String role) {
    return privateKeys.get(role);
  }

  public JsonObject jwks() {
    return jwks;
  }
}
