package ccp.seguridad.ssf;

import ccp.platform.http.JsonBody;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@DisplayName("A push endpoint must not make seguridad call inside the network: https to public addresses only, in every form they are written")
class DestinoPushTest {

  /** Every internal address, and each IPv6 form that carries one, as an attacker writes it in a stream's endpoint. */
  static final List<String> INTERNAS = List.of(
    "https://127.0.0.1/ssf", "https://127.1.2.3/ssf", "https://10.0.0.7/ssf", "https://192.168.1.2/ssf", "https://172.16.0.1/ssf",
    "https://169.254.169.254/latest/meta-data", "https://100.64.0.1/ssf", "https://0.0.0.0/ssf", "https://224.0.0.1/ssf",
    "https://[::1]/ssf", "https://[::]/ssf", "https://[fd00::1]/ssf", "https://[fc00::1]/ssf", "https://[fe80::1]/ssf",
    "https://[ff02::1]/ssf", "https://localhost/ssf",
    "https://[::ffff:127.0.0.1]/ssf", "https://[::ffff:7f00:1]/ssf", "https://[::ffff:169.254.169.254]/ssf",
    "https://[::127.0.0.1]/ssf", "https://[::169.254.169.254]/ssf", "https://[::10.0.0.1]/ssf", "https://[::a00:1]/ssf",
    "https://[64:ff9b::7f00:1]/ssf", "https://[64:ff9b::10.0.0.1]/ssf", "https://[64:ff9b::a9fe:a9fe]/ssf",
    "https://[64:ff9b:1::5db8:d822]/ssf",
    "https://[2002:7f00:1::1]/ssf", "https://[2002:a9fe:a9fe::]/ssf", "https://[2002:0a00:0001::1]/ssf",
    "https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/ssf");

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
  @DisplayName("loopback, private, link-local, CGNAT, unique-local, multicast, unspecified and their IPv4-mapped, IPv4-compatible, NAT64, 6to4 and Teredo forms are refused, naming the field")
  void refusesWhatIsInside() {
    DestinoPush destinos = destinos(false, "", "");
    for (String url : INTERNAS) assertRefused(destinos, url);
    assertRefused(destinos, "http://93.184.216.34/ssf");
    destinos.close();
  }

  @Test
  @DisplayName("a port out of range is refused whatever else is allowed")
  void portOutOfRange() {
    DestinoPush destinos = destinos(true, "", "");
    assertRefused(destinos, "https://1.1.1.1:99999/");
    assertRefused(destinos, "http://127.0.0.1:0/");
    destinos.close();
  }

  @Test
  @DisplayName("the cluster's ranges are refused; an operator's allowed range passes although internal")
  void operatorRanges() throws Exception {
    DestinoPush destinos = destinos(false, "93.184.216.0/24,2606:2800:220::/48", "10.1.2.0/24");
    assertRefused(destinos, "https://93.184.216.34/ssf");
    assertRefused(destinos, "https://[::ffff:93.184.216.34]/ssf");
    assertRefused(destinos, "https://[2606:2800:220:1::1]/ssf");
    destinos.comprobar("https://10.1.2.3:8443/ssf").await(10, TimeUnit.SECONDS);
    assertRefused(destinos, "https://10.1.3.3/ssf");
    destinos.close();
  }

  @Test
  @DisplayName("a public https address passes; with ssf.push-private-allowed (a laptop, the tests) anything does")
  void letsPublicAndAllowed() throws Exception {
    DestinoPush destinos = destinos(false, "", "");
    destinos.comprobar("https://93.184.216.34/ssf/events").await(10, TimeUnit.SECONDS);
    destinos.comprobar("https://[2606:2800:220:1:248:1893:25c8:1946]/ssf").await(10, TimeUnit.SECONDS);
    destinos.comprobar("https://[64:ff9b::5db8:d822]/ssf").await(10, TimeUnit.SECONDS);
    assertThat(destinos.conectarA("https://93.184.216.34:8443/x").await(10, TimeUnit.SECONDS).orElseThrow().port()).isEqualTo(8443);
    assertThat(destinos.motivo(InetAddress.getByName("8.8.8.8"))).isEmpty();
    destinos.close();
    DestinoPush permitido = destinos(true, "", "");
    permitido.comprobar("http://127.0.0.1:8999/ssf").await(10, TimeUnit.SECONDS);
    permitido.close();
  }

  @Test
  @DisplayName("at connect time the name is resolved and checked again: a name that resolves inside is not connected to")
  void atConnectTime() {
    DestinoPush destinos = destinos(false, "", "");
    assertThatThrownBy(() -> destinos.conectarA("https://localhost:8443/ssf").await(10, TimeUnit.SECONDS))
      .isInstanceOf(DestinoPush.Rechazado.class).hasMessageContaining("localhost resolves to");
    destinos.close();
  }

  private DestinoPush destinos(boolean privado, String denegados, String permitidos) {
    return new DestinoPush(vertx, new SsfConfig.Destinos(privado, Rango.lista(denegados), Rango.lista(permitidos)));
  }

  private static void assertRefused(DestinoPush destinos, String url) {
    assertThatThrownBy(() -> destinos.comprobar(url).await(10, TimeUnit.SECONDS)).as(url)
      .isInstanceOf(JsonBody.BadRequest.class)
      .satisfies(e -> assertThat(((JsonBody.BadRequest) e).field()).isEqualTo("delivery.endpoint_url"));
  }
}
