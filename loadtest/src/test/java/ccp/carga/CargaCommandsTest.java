package ccp.carga;

import ccp.support.CommandRun;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The scripts' contract: a bad flag value exits 2 with one line that names the flag, before any load is sent. */
class CargaCommandsTest {

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "carga-pedidos  | --rate=0              | --rate        | positive integer",
    "carga-pedidos  | --duration=ten        | --duration    | positive integer",
    "carga-pedidos  | --improper=1.5        | --improper    | fraction from 0 to 1",
    "carga-pedidos  | --gateway=localhost   | --gateway     | host and port",
    "carga-sesiones | --connections=-4      | --connections | positive integer",
    "carga-sesiones | --unknown=x           | --unknown     | fraction from 0 to 1",
    "carga-sesiones | --metrics=http://m/x  | --metrics     | host and port",
    "carga-sesiones | --improper=0.1        | --improper    | Unknown option",
    "carga-sobrecarga | --factor=0.5        | --factor      | number from 1 to 10",
    "carga-sobrecarga | --sesiones=0        | --sesiones    | positive integer",
    "carga-sobrecarga | --recovery=x        | --recovery    | positive integer",
    "carga-sobrecarga | --rate=100          | --rate        | Unknown option",
  })
  void aBadValueExitsTwoWithOneLineNamingTheFlag(String command, String flag, String named, String reason) {
    CommandRun run = CommandRun.inProcess(new String[] {command, flag}, new CargaSesiones(), new CargaPedidos(), new CargaSobrecarga());

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.stderr().lines()).singleElement().asString().startsWith("reto2-ccp: " + command + ": ").contains(named, reason);
  }

}
