package ccp.carga;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("The last line of a run against the floor: ours ÷ the floor's, rate and CPU per request")
class InformeTest {

  @Test
  @DisplayName("600/s at 2.4 ms against the floor's 1,000/s at 1.2 ms reads rate 0.60x, CPU 2.00x")
  void ratioOfOursToTheFloor() {
    Informe ours = new Informe("ours", 600, OptionalDouble.of(2.4));
    Informe floor = new Informe("floor", 1000, OptionalDouble.of(1.2));

    assertThat(Informe.ratio(ours, floor)).startsWith("ratio: rate 0.60x, CPU 2.00x  (")
      .contains("600.0/s against 1000.0/s", "2.400 ms against 1.200 ms");
  }

  @Test
  @DisplayName("without the system's CPU (an external server not scraped) the CPU ratio is said unknown, the rate still given")
  void unknownCpu() {
    assertThat(Informe.ratio(new Informe("ours", 500, OptionalDouble.empty()), new Informe("floor", 1000, OptionalDouble.of(1))))
      .startsWith("ratio: rate 0.50x, CPU unknown");
  }
}
