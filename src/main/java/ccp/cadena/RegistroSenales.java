package ccp.cadena;

import io.vertx.core.Future;

import java.util.List;

/**
 * RegistroSenales ({@code cadena.registro_senales}) as the Monitor de la cadena (vigilancia) uses it: it registers a
 * signal for each stopped stage (R1–R3, and SondeoSalud's early ones), once per attempt, and publishes them (R4–R5).
 * Read-only on the chain. The owner of the chain's state answers it, through {@link Cadena#registroSenales}.
 */
public interface RegistroSenales {

  /** R1–R3: registers a signal for each stage in flight past its deadline, once per attempt, if its chain runs. */
  Future<Void> senalarVencidas();

  /**
   * Registers a signal for each of {@code etapa}'s stages in flight whose chain runs (the stage's consumers are gone);
   * answers how many.
   */
  Future<Integer> senalarSinRespuesta(Etapa etapa);

  /** The registered signals not yet acknowledged by the broker, oldest first. */
  Future<List<Senal>> senalesPorPublicar();

  /** Whether this call marked the signal published (false: another monitor did first). */
  Future<Boolean> senalPublicada(Senal senal);
}
