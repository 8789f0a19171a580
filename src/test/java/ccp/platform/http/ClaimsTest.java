package ccp.platform.http;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("Claims: a token's dates, audience and issuer refused by what they say, before its signature is checked")
class ClaimsTest {

  private static final long AHORA = 1_800_000_000L;

  private static String token(JsonObject claims) {
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    return b64.encodeToString("{\"alg\":\"RS256\"}".getBytes(StandardCharsets.UTF_8)) + "."
      + b64.encodeToString(claims.encode().getBytes(StandardCharsets.UTF_8)) + ".firma";
  }

  private static JsonObject vigente() {
    return new JsonObject().put("iss", "ccp").put("aud", "ccp-app").put("iat", AHORA - 60).put("exp", AHORA + 600);
  }

  private static String rechazo(JsonObject claims) {
    return Claims.refusal(token(claims), AHORA, 5, "ccp", "ccp-app");
  }

  @Test
  @DisplayName("each claim out of bounds is named; within the leeway, a token passes")
  void rechazos() {
    assertThat(rechazo(vigente())).isNull();
    assertThat(rechazo(vigente().put("aud", new JsonArray().add("otra").add("ccp-app")))).isNull();
    assertThat(rechazo(vigente().put("exp", AHORA - 3))).as("expired within the leeway").isNull();
    assertThat(rechazo(vigente().put("exp", AHORA - 5))).isEqualTo("token expired");
    assertThat(rechazo(vigente().put("nbf", AHORA + 60))).isEqualTo("token is not valid yet (nbf)");
    assertThat(rechazo(vigente().put("iat", AHORA + 60))).isEqualTo("token is issued in the future (iat)");
    assertThat(rechazo(vigente().put("aud", "otra"))).isEqualTo("token is not for this audience (aud)");
    assertThat(rechazo(vigente().put("iss", "otro"))).isEqualTo("token is not from the trusted issuer (iss)");
  }
}
