package ccp.app;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("The jar's command line: a bad role, flag, command or configuration exits 2 with one line naming it")
class MainExitTest {

  @ParameterizedTest(name = "{0} {1} → {2}")
  @CsvSource(delimiter = '|', value = {
    "--role=nada                |                          | unknown role 'nada' (valid: all, infra, gateway, gestor, seguridad, pedidos, cadena, facturacion, inventario, despacho, vigilancia)",
    "--bogus                    |                          | bad flag '--bogus'",
    "--role=gestor --color=red  |                          | unknown flag --color",
    "frobnicate                 |                          | unknown command 'frobnicate'",
    "--conf=/nonexistent.json   |                          | cannot read configuration file /nonexistent.json",
    "--role=all                 | CCP_PG_PORT=abc          | CCP_PG_PORT='abc' is not a number",
    "--role=all                 | CCP_NOPE=1               | unknown environment variable CCP_NOPE",
    "token                      |                          | token needs exactly one actor id",
    "--role=infra,gestor        |                          | role 'infra' runs alone",
    "--role=infra               | CCP_PG_HOST=db           | --role=infra starts the embedded Kafka and PostgreSQL",
  })
  void exitsWithStatusTwo(String args, String env, String message) throws Exception {
    List<String> command = new ArrayList<>(List.of(
      new File(System.getProperty("java.home"), "bin/java").getPath(), "-cp", System.getProperty("java.class.path"), "ccp.Main"));
    command.addAll(List.of(args.trim().split("\\s+")));
    ProcessBuilder builder = new ProcessBuilder(command);
    if (env != null) {
      String[] kv = env.trim().split("=", 2);
      builder.environment().put(kv[0], kv[1]);
    }
    Process process = builder.start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).strip();

    assertThat(process.exitValue()).isEqualTo(2);
    assertThat(stderr.lines()).singleElement().asString().startsWith("reto2-ccp: ").contains(message);
  }
}
