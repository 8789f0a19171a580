package ccp.platform.http;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@DisplayName("Jose: compact JWS signed and checked, each refusal its own type")
class JoseTest {

  private static final JsonObject CLAVE = Jwks.generateRs256("k1");
  private static final JsonObject OTRA = Jwks.generateRs256("k2");
  private static final String PAYLOAD = new JsonObject().put("iss", "x").put("jti", "1").encode();

  private static JsonObject cabecera(String kid) {
    return new JsonObject().put("alg", "RS256").put("typ", "secevent+jwt").put("kid", kid);
  }

  @Test
  @DisplayName("a token signed by a key of the set verifies, its header and payload as written")
  void firmaYVerifica() {
    String token = Jose.signer(CLAVE).sign(cabecera("k1"), PAYLOAD);
    assertThat(Jose.KeySet.of(List.of(Jwks.publicPart(CLAVE))).verify(token)).isEqualTo(new JsonObject(PAYLOAD));
    assertThat(Jose.parts(token).header().getString("typ")).isEqualTo("secevent+jwt");
    assertThat(Jose.signer(CLAVE).sign(cabecera("k1"), PAYLOAD)).as("RS256 is deterministic").isEqualTo(token);
  }

  @Test
  @DisplayName("an unknown kid, a signature of another key, and a body that is not a JWS each fail with their own type")
  void rechazos() {
    Jose.KeySet set = Jose.KeySet.of(List.of(Jwks.publicPart(CLAVE)));
    assertThatThrownBy(() -> set.verify(Jose.signer(OTRA).sign(cabecera("k2"), PAYLOAD))).isInstanceOf(Jose.UnknownKey.class);
    assertThatThrownBy(() -> set.verify(Jose.signer(OTRA).sign(cabecera("k1"), PAYLOAD))).isInstanceOf(Jose.BadSignature.class);
    assertThatThrownBy(() -> set.verify("esto no es un JWT")).isInstanceOf(Jose.Malformed.class);
    assertThatThrownBy(() -> Jose.parts("e30.e30.")).isInstanceOf(Jose.Malformed.class);
  }
}
