package ccp.cadena;

import io.vertx.core.Future;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;

/**
 * RegistroSenales ({@code cadena.registro_senales}) as the Monitor de la cadena (vigilancia) uses it: it registers a
 * signal for each stopped stage (R1–R3, and SondeoSalud's early ones), once per attempt, and publishes them (R4–R5).
 * Read-only on the chain. The owner of the chain's state answers it, through {@link Cadena#registroSenales}. Its
 * statements take pages of {@link #PAGINA} rows: a stage outage at any rate is signalled by the turn that finds it.
 */
public interface RegistroSenales {

  /**
   * The rows one periodic statement of the chain takes at most (the sweep, the probe's signals, their publication, the
   * Reanudador's escalations). Not a cap on a turn: the callers take pages until one is short, so every stage stopped
   * at any rate is signalled by the turn that finds it, each statement staying short.
   */
  int PAGINA = 2_000;

  /** R1–R3: registers a signal for each stage in flight past its deadline, once per attempt, if its chain runs. */
  Future<Void> senalarVencidas();

  /**
   * Registers a signal for each of {@code etapa}'s stages in flight whose chain runs (the stage's consumers are gone);
   * answers how many.
   */
  Future<Integer> senalarSinRespuesta(Etapa etapa);

  /** A page of the registered signals not yet acknowledged by the broker, oldest first; a short page is the last. */
  Future<List<Senal>> senalesPorPublicar();

  /** Marks {@code senales} published in one statement; answers those this call marked, each with when (another monitor may have marked the rest). */
  Future<Map<Senal, OffsetDateTime>> senalesPublicadas(List<Senal> senales);
}
