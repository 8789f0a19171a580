package ccp.keycloak;

import ccp.platform.http.Jose;
import ccp.platform.http.Jwks;
import ccp.support.Http;
import ccp.support.Keycloak;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;

/**
 * Keycloak's Shared Signals transmitter set up as its documentation has a person do it: the realm's transmitter
 * switched on ({@code ssf.transmitterEnabled}), a confidential client registered as a receiver ({@code ssf.enabled},
 * with a service account and the {@code ssf.manage} scope), and the stream created by that client, with its own token,
 * at the configuration endpoint the realm's {@code .well-known/ssf-configuration} names.
 */
final class KeycloakSsf {

  private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private KeycloakSsf() {}

  /** A push stream of the session-revoked and credential-change events to {@code endpoint}; Keycloak's answer. */
  static JsonObject crearFlujo(Keycloak keycloak, String clientId, String endpoint) throws Exception {
    JsonObject realm = new JsonObject(keycloak.adminOk("GET", "", null).body());
    JsonObject attributes = realm.getJsonObject("attributes", new JsonObject()).put("ssf.transmitterEnabled", "true");
    keycloak.adminOk("PUT", "", new JsonObject().put("attributes", attributes));
    String secret = UUID.randomUUID().toString();
    keycloak.adminOk("POST", "/clients", new JsonObject().put("clientId", clientId).put("enabled", true)
      .put("publicClient", false).put("secret", secret).put("serviceAccountsEnabled", true)
      .put("standardFlowEnabled", false).put("directAccessGrantsEnabled", false)
      .put("defaultClientScopes", new JsonArray().add("ssf.manage").add("ssf.read"))
      .put("attributes", new JsonObject().put("ssf.enabled", "true").put("ssf.defaultSubjects", "ALL")
        .put("ssf.validPushUrls", endpoint).put("ssf.allowedDeliveryMethods", "PUSH")));
    String token = Keycloak.tokenResponse(keycloak.realmUrl() + "/protocol/openid-connect/token",
      Map.of("grant_type", "client_credentials", "client_id", clientId, "client_secret", secret)).getString("access_token");
    JsonObject metadata = new JsonObject(get(keycloak.realmUrl() + "/.well-known/ssf-configuration", null).body());
    JsonObject request = new JsonObject()
      .put("delivery", new JsonObject().put("method", "urn:ietf:rfc:8935").put("endpoint_url", endpoint))
      .put("events_requested", new JsonArray()
        .add("https://schemas.openid.net/secevent/caep/event-type/session-revoked")
        .add("https://schemas.openid.net/secevent/caep/event-type/credential-change"))
      .put("description", "ccp receiver (tests)");
    HttpResponse<String> created = CLIENT.send(HttpRequest.newBuilder(URI.create(metadata.getString("configuration_endpoint")))
      .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
      .POST(HttpRequest.BodyPublishers.ofString(request.encode())).build(), HttpResponse.BodyHandlers.ofString());
    if (created.statusCode() / 100 != 2) {
      throw new IllegalStateException("Keycloak refused the stream: " + created.statusCode() + " " + created.body());
    }
    return new JsonObject(created.body());
  }

  /**
   * A new RSA key for the realm, of a higher priority than the committed one: what Keycloak signs with from now on (the
   * old key stays published, passive for new tokens). Its kid.
   */
  static String rotarClave(Keycloak keycloak) {
    String realmId = new JsonObject(keycloak.adminOk("GET", "", null).body()).getString("id");
    keycloak.adminOk("POST", "/components", new JsonObject().put("name", "rsa-rotada-" + UUID.randomUUID())
      .put("providerId", "rsa-generated").put("providerType", "org.keycloak.keys.KeyProvider").put("parentId", realmId)
      .put("config", new JsonObject().put("priority", new JsonArray().add(String.valueOf(1_000 + System.currentTimeMillis() / 1000 % 1_000_000)))
        .put("keySize", new JsonArray().add("2048")).put("enabled", new JsonArray().add("true"))
        .put("active", new JsonArray().add("true"))));
    JsonObject keys = new JsonObject(keycloak.adminOk("GET", "/keys", null).body());
    return keys.getJsonObject("active").getString("RS256");
  }

  /** A session-revoked SET naming {@code issuer}, signed by a key no one publishes. */
  static String setAjeno(String issuer) {
    JsonObject key = Jwks.generateRs256("ajena-" + UUID.randomUUID());
    JsonObject header = new JsonObject().put("alg", "RS256").put("typ", "secevent+jwt").put("kid", key.getString("kid"));
    JsonObject claims = new JsonObject().put("iss", issuer).put("aud", "nadie").put("jti", UUID.randomUUID().toString())
      .put("iat", System.currentTimeMillis() / 1000).put("sub_id", new JsonObject().put("format", "opaque").put("id", "nadie"))
      .put("events", new JsonObject().put("https://schemas.openid.net/secevent/caep/event-type/session-revoked", new JsonObject()));
    return Jose.signer(key).sign(header, claims.encode());
  }

  /** The kid in a JWT's header. */
  static String firmadoCon(String jwt) {
    return new JsonObject(new String(Base64.getUrlDecoder().decode(jwt.split("\\.")[0]))).getString("kid");
  }

  private static Http.Response get(String url, String token) {
    return Http.get(url, token);
  }
}
