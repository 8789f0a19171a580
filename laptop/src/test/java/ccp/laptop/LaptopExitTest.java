package ccp.laptop;

import ccp.support.CommandRun;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("The laptop jar's command line: the production commands and its own, each bad use exits 2 with one line")
// Each case is a JVM of its own, started and waited for: they run side by side.
@Execution(ExecutionMode.CONCURRENT)
class LaptopExitTest {

  @ParameterizedTest(name = "{0} {1} → {2}")
  @CsvSource(delimiter = '|', value = {
    "frobnicate                 |                          | unknown command 'frobnicate' (valid: run, token, k8s-secrets, infra, lab, carga-sesiones, carga-pedidos, carga-sobrecarga, experimento)",
    "--role=infra               |                          | unknown role 'infra'",
    "infra --role=gestor        |                          | infra: Unknown option: '--role=gestor'",
    "infra                      | CCP_PG_HOST=db           | infra starts the embedded Kafka and PostgreSQL",
    "--role=all                 | CCP_PG_PORT=abc          | CCP_PG_PORT='abc' is not a number",
    "token                      |                          | token needs exactly one actor id",
    "lab --requests=0           |                          | --requests",
    "carga-pedidos --rate=0     |                          | --rate",
  })
  void exitsWithStatusTwo(String args, String env, String message) throws Exception {
    CommandRun run = CommandRun.of(Laptop.class, args, CommandRun.env(env));

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.stderr().lines()).singleElement().asString().startsWith("reto2-ccp: ").contains(message);
  }
}
