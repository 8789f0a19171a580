package ccp.app;

import ccp.platform.cli.Cli;
import ccp.platform.http.Jwks;
import ccp.platform.infra.LocalServers;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.auth.JWTOptions;
import io.vertx.ext.auth.User;
import io.vertx.ext.auth.authentication.TokenCredentials;
import io.vertx.ext.auth.jwt.JWTAuth;
import io.vertx.ext.auth.jwt.JWTAuthOptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("token: a development App token, signed by the dev issuer's key in the data directory")
class TokenCommandTest {

  @Test
  @DisplayName("the key is made once (mode 600), and the token is ES256 under its kid, for the audience, from the issuer, living jwt.ttl-minutes")
  void mintsWithTheDevIssuer() throws Exception {
    Path dir = Files.createTempDirectory("ccp-token");
    Path conf = dir.resolve("ccp.json");
    Files.writeString(conf, new JsonObject(Files.readString(Path.of("conf/ccp.json"))).put("data.dir", dir.resolve("data").toString()).encode());

    String token = run("token", "consulta-1", "--perfil=consulta", "--conf=" + conf);
    Path key = dir.resolve("data/dev-issuer.jwk");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key))).isEqualTo("rw-------");
    String first = Files.readString(key);
    run("token", "vendedor-1", "--conf=" + conf);
    assertThat(Files.readString(key)).as("made once").isEqualTo(first);

    JsonObject header = new JsonObject(new String(Base64.getUrlDecoder().decode(token.split("\\.")[0]), StandardCharsets.UTF_8));
    assertThat(header.getString("alg")).isEqualTo("RS256");
    assertThat(header.getString("kid")).isEqualTo("ccp-dev-issuer");
    Vertx vertx = Vertx.vertx();
    try {
      JWTAuth verifier = JWTAuth.create(vertx, new JWTAuthOptions().addJwk(Jwks.publicPart(Jwks.read(key)))
        .setJWTOptions(new JWTOptions().setIssuer("ccp").addAudience("ccp-app")));
      User user = verifier.authenticate(new TokenCredentials(token)).await();
      assertThat(user.subject()).isEqualTo("consulta-1");
      assertThat((String) user.get("perfil")).isEqualTo("CONSULTA");
      assertThat(((Number) user.get("exp")).longValue() - ((Number) user.get("iat")).longValue()).isEqualTo(3600);
    } finally {
      vertx.close().await();
    }
  }

  private static String run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream original = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      assertThat(Cli.execute(args, new RunCommand(LocalServers.NONE), new TokenCommand())).isZero();
    } finally {
      System.setOut(original);
    }
    return out.toString(StandardCharsets.UTF_8).strip();
  }
}
