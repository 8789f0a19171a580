package ccp.lab;

import ccp.Main;
import ccp.platform.config.ConfigException;
import ccp.support.SharedInfra;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@DisplayName("The lab command")
class LabTest {

  @Test
  @DisplayName("a bad flag is a configuration error naming it (exit 2)")
  void badFlags() {
    assertThatThrownBy(() -> Lab.run(SharedInfra.defaults(), new Main.Arguments("lab", List.of(), Map.of("workers", "0"))))
      .isInstanceOf(ConfigException.class).hasMessageContaining("--workers='0'");
    assertThatThrownBy(() -> Lab.run(SharedInfra.defaults(), new Main.Arguments("lab", List.of(), Map.of("strategies", "cas,nada"))))
      .isInstanceOf(ConfigException.class).hasMessageContaining("--strategies='cas,nada'");
    assertThatThrownBy(() -> Lab.run(SharedInfra.defaults(), new Main.Arguments("lab", List.of(), Map.of("coarse-ms", "10,10"))))
      .isInstanceOf(ConfigException.class).hasMessageContaining("--coarse-ms='10,10'");
    assertThatThrownBy(() -> Lab.run(SharedInfra.defaults(), new Main.Arguments("lab", List.of(), Map.of("color", "red"))))
      .isInstanceOf(ConfigException.class).hasMessageContaining("unknown flag --color");
  }

  @Test
  @DisplayName("a small run writes the comparison, sweep and Inventario-stage CSV and both charts into the report folder")
  void writesReport(@TempDir Path out) throws Exception {
    Lab.run(SharedInfra.settings(), new Main.Arguments("lab", List.of(), Map.of("requests", "400", "stock", "40", "workers", "8",
      "slow-ms", "0.05", "coarse-ms", "0.1,0,0,0", "strategies", "bloqueo-amplio,cas,pg-atomica", "sweep", "1,8", "multi", "false",
      "out", out.toString())));

    assertThat(Files.readAllLines(out.resolve("estrategias.csv"))).hasSize(4).element(3).asString().startsWith("pg-atomica,false,400,8,1,40,40,360,");
    assertThat(Files.readAllLines(out.resolve("trabajadores.csv"))).hasSize(7);
    assertThat(Files.size(out.resolve("estrategias.png"))).isPositive();
    assertThat(Files.size(out.resolve("trabajadores.png"))).isPositive();
    assertThat(Files.readString(out.resolve("informe.txt"))).contains("| cas |", "Consistency errors: 0");
    // The Inventario stage's own reservation, both ways: every unit approved once, none oversold.
    assertThat(Files.readAllLines(out.resolve("etapa-inventario.csv"))).hasSize(3)
      .anySatisfy(l -> assertThat(l).startsWith("256,80,40,40,0,")).anySatisfy(l -> assertThat(l).startsWith("1,80,40,40,0,"));
  }
}
