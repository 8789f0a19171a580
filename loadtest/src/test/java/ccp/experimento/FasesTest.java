package ccp.experimento;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("The experiment's phases, cut at the faults of eventos.log")
class FasesTest {

  private static final long INICIO = 1_000_000;

  @Test
  @DisplayName("overlapping faults make a phase named after all of them, and each one's own before and after")
  void overlappingFaultsNameTheirPhaseAfterAll() {
    List<Fases.Evento> eventos = List.of(
      new Fases.Evento(INICIO, "inicio", "carga"),
      new Fases.Evento(INICIO + 4_000, "inicio", "kill-9:pedidos-1"),
      new Fases.Evento(INICIO + 5_000, "inicio", "particion:gateway-1/gestor-1"),
      new Fases.Evento(INICIO + 15_000, "fin", "particion:gateway-1/gestor-1"),
      new Fases.Evento(INICIO + 20_000, "fin", "kill-9:pedidos-1"));

    assertThat(Fases.cortar(eventos, INICIO, 40)).containsExactly(
      new Fases.Fase(0, 4, "no fault"),
      new Fases.Fase(4, 5, "kill-9:pedidos-1"),
      new Fases.Fase(5, 15, "kill-9:pedidos-1 + particion:gateway-1/gestor-1"),
      new Fases.Fase(15, 20, "kill-9:pedidos-1"),
      new Fases.Fase(20, 40, "no fault"));
  }

  @Test
  @DisplayName("a fault still open when the load ends names the load's last phase, cut at the load's end")
  void aFaultOpenAtTheEndNamesTheLastPhase() {
    List<Fases.Evento> eventos = List.of(
      new Fases.Evento(INICIO + 30_000, "inicio", "kill-9:broker"),
      new Fases.Evento(INICIO + 70_000, "fin", "kill-9:broker"));

    assertThat(Fases.cortar(eventos, INICIO, 50)).containsExactly(
      new Fases.Fase(0, 30, "no fault"),
      new Fases.Fase(30, 50, "kill-9:broker"));
  }
}
