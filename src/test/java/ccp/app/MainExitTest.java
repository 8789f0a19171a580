package ccp.app;

import ccp.Main;
import ccp.support.CommandRun;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("The jar's command line: a bad role, flag, command or configuration exits 2 with one line naming it")
// Each case is a JVM of its own, started and waited for: they run side by side.
@Execution(ExecutionMode.CONCURRENT)
class MainExitTest {

  @ParameterizedTest(name = "{0} {1} → {2}")
  @CsvSource(delimiter = '|', value = {
    "--role=nada                |                          | unknown role 'nada' (valid: all, gateway, gestor, seguridad, pedidos, cadena, facturacion, inventario, despacho, vigilancia)",
    "--bogus                    |                          | run: Unknown option: '--bogus'",
    "--role=gestor --color=red  |                          | run: Unknown option: '--color=red'",
    "frobnicate                 |                          | unknown command 'frobnicate' (valid: run, token, k8s-secrets)",
    "lab                        |                          | unknown command 'lab' (valid: run, token, k8s-secrets)",
    "--role=all                 |                          | CCP_PG_HOST is not set and this artifact starts no PostgreSQL of its own",
    "--conf=/nonexistent.json   |                          | cannot read configuration file /nonexistent.json",
    "--role=all                 | CCP_PG_PORT=abc          | CCP_PG_PORT='abc' is not a number",
    "--role=all                 | CCP_NOPE=1               | unknown environment variable CCP_NOPE",
    "--role=all                 | CCP_PG_HOST=db "
      + "| CCP_KAFKA_BOOTSTRAP is not set and this artifact starts no Kafka broker of its own",
    "--role=pedidos             | CCP_PG_HOST=db CCP_KAFKA_BOOTSTRAP=kafka:9092 CCP_PG_PASSWORD_PEDIDOS=x "
      + "| CCP_KAFKA_PASSWORD_PEDIDOS is not set: role pedidos authenticates to Kafka as ccp-pedidos",
    "--role=gestor,pedidos      | CCP_PG_HOST=db.invalid CCP_KAFKA_BOOTSTRAP=kafka.invalid:9092"
      + " CCP_PG_PASSWORD_GESTOR=x | PostgreSQL role 'pedidos' has no password: set CCP_PG_PASSWORD_PEDIDOS",
    "token                      |                          | token needs exactly one actor id",
    "token a b                  |                          | token: Unmatched argument at index 2: 'b'",
    "token a --perfil=SISTEMA   |                          | perfil 'SISTEMA' is not an App profile (valid: [BODEGA, CONSULTA, OPERADOR, SEGURIDAD, VENDEDOR])",
    "token a --perfil=sistema   |                          | perfil 'sistema' is not an App profile",
    "token a                    | CCP_PG_HOST=db           | token mints with the development issuer of a laptop run: with CCP_PG_HOST set",
  })
  void exitsWithStatusTwo(String args, String env, String message) throws Exception {
    CommandRun run = CommandRun.of(Main.class, args, CommandRun.env(env));

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.stderr().lines()).singleElement().asString().startsWith("reto2-ccp: ").contains(message);
  }
}
