package ccp.seguridad.ssf;

import ccp.platform.http.JsonBody;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@DisplayName("A push endpoint must not make seguridad call inside the network: https to public addresses only, unless allowed")
class DestinoPushTest {

  private Vertx vertx;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stop() {
    vertx.close().await();
  }

  @Test
  @DisplayName("plain http, loopback, private, link-local, CGNAT and unique-local addresses are refused, naming the field")
  void refusesWhatIsInside() {
    DestinoPush destinos = new DestinoPush(vertx, false);
    for (String url : new String[] {"http://siem.example.com/ssf", "https://127.0.0.1/ssf", "https://10.0.0.7/ssf",
      "https://192.168.1.2/ssf", "https://172.16.0.1/ssf", "https://169.254.169.254/latest/meta-data", "https://100.64.0.1/ssf",
      "https://[::1]/ssf", "https://[fd00::1]/ssf", "https://localhost/ssf"}) {
      assertThatThrownBy(() -> destinos.comprobar(url).await(10, TimeUnit.SECONDS)).as(url)
        .isInstanceOf(JsonBody.BadRequest.class)
        .satisfies(e -> assertThat(((JsonBody.BadRequest) e).field()).isEqualTo("delivery.endpoint_url"));
    }
  }

  @Test
  @DisplayName("a public https address passes; with ssf.push-private-allowed (a laptop, the tests) anything does")
  void letsPublicAndAllowed() throws Exception {
    new DestinoPush(vertx, false).comprobar("https://93.184.216.34/ssf/events").await(10, TimeUnit.SECONDS);
    new DestinoPush(vertx, true).comprobar("http://127.0.0.1:8999/ssf").await(10, TimeUnit.SECONDS);
    assertThat(DestinoPush.privada(java.net.InetAddress.getByName("8.8.8.8"))).isFalse();
  }
}
