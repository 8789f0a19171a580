package ccp.lab;

import ccp.support.CommandRun;
import ccp.platform.config.ConfigException;
import ccp.support.SharedInfra;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@DisplayName("The lab command")
class LabTest {

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(delimiter = '|', value = {
    "lab           | --workers=0                    | --workers       | '0' must be a positive integer",
    "lab           | --strategies=cas,nada          | --strategies    | 'nada' must be one of [sin-sincronizacion,",
    "lab           | --coarse-ms=10,70000           | --coarse-ms     | '70000' must be milliseconds from 0 to 60000",
    "lab           | --multi=maybe                  | --multi         | 'maybe' is not a boolean",
    "lab           | --color=red                    | --color         | Unknown option",
    "lab-instancia | --variante=global              | --variante      | 'global' must be lock-local or atomica",
    "lab-instancia | --requests=10                  | --producto      | Missing required option",
  })
  @DisplayName("a bad option exits 2 with one line that names it, before anything runs")
  void badOptionExitsTwo(String command, String option, String named, String reason) {
    CommandRun run = CommandRun.inProcess(new String[] {command, option}, new Lab(), new LabInstancia());

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.stderr().lines()).singleElement().asString().startsWith("reto2-ccp: " + command + ": ").contains(named, reason);
  }

  @Test
  @DisplayName("a value picocli accepts but the run cannot use is a configuration error naming its option (exit 2)")
  void badListsAreConfigurationErrors() {
    assertThatThrownBy(() -> parsed("--coarse-ms=10,10").correr(SharedInfra.defaults()))
      .isInstanceOf(ConfigException.class).hasMessageContaining("--coarse-ms takes four milliseconds");
    assertThatThrownBy(() -> parsed("--sweep=1,0").correr(SharedInfra.defaults()))
      .isInstanceOf(ConfigException.class).hasMessageContaining("--sweep='1,0'");
    assertThatThrownBy(() -> parsed("--sweep=none,8").correr(SharedInfra.defaults()))
      .isInstanceOf(ConfigException.class).hasMessageContaining("--sweep='none,8'");
  }

  @Test
  @DisplayName("a small run writes the comparison, sweep and Inventario-stage CSV and both charts into the report folder")
  void writesReport(@TempDir Path out) throws Exception {
    parsed("--requests=400", "--stock=40", "--workers=8", "--slow-ms=0.05", "--coarse-ms=0.1,0,0,0",
      "--strategies=bloqueo-amplio,cas,pg-atomica", "--sweep=1,8", "--multi=false", "--out=" + out).correr(SharedInfra.settings());

    assertThat(Files.readAllLines(out.resolve("estrategias.csv"))).hasSize(4).element(3).asString().startsWith("pg-atomica,false,400,8,1,40,40,360,");
    assertThat(Files.readAllLines(out.resolve("trabajadores.csv"))).hasSize(7);
    assertThat(Files.size(out.resolve("estrategias.png"))).isPositive();
    assertThat(Files.size(out.resolve("trabajadores.png"))).isPositive();
    assertThat(Files.readString(out.resolve("informe.txt"))).contains("| cas |", "Consistency errors: 0");
    // The Inventario stage's own reservation, both ways: every unit approved once, none oversold.
    assertThat(Files.readAllLines(out.resolve("etapa-inventario.csv"))).hasSize(3)
      .anySatisfy(l -> assertThat(l).startsWith("256,80,40,40,0,")).anySatisfy(l -> assertThat(l).startsWith("1,80,40,40,0,"));
  }

  /** The command with {@code args} read by picocli, to run on the tests' settings instead of a configuration file's. */
  private static Lab parsed(String... args) {
    Lab lab = new Lab();
    new CommandLine(lab).parseArgs(args);
    return lab;
  }
}
