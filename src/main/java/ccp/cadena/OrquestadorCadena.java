package ccp.cadena;

import ccp.platform.db.Combiner;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * OrquestadorCadena, the part of the Coordinador that keeps the order of the stages (step 11): a confirmed stage
 * becomes COMPLETADA and the next one starts (back to step 5); after the last, {@code pedido.listo} (step 12). Every
 * transition is one conditional update, so a repeated confirmation changes nothing — it only makes sure that what
 * the first one should have sent was sent (a crash may have come between the update and the publish). The
 * confirmations that arrive while one statement is in flight are recorded by the next, together ({@link Combiner}).
 */
final class OrquestadorCadena {

  private static final Logger LOG = LoggerFactory.getLogger(OrquestadorCadena.class);
  /** Why an open Bandeja item closed by itself: its stage confirmed after the escalation. */
  static final String CONFIRMACION_TARDIA = "confirmación tardía";

  private final RepositorioCadena cadenas;
  private final RepositorioBandeja bandeja;
  private final PublicadorComandos comandos;
  private final Timer asr4;
  private final Timer completas;
  private final Combiner<UUID, RepositorioCadena.Confirmacion, RepositorioCadena.Avance> avances;

  OrquestadorCadena(RepositorioCadena cadenas, RepositorioBandeja bandeja, PublicadorComandos comandos, long plazoMs,
                    int loteMax, Timer asr4, Timer completas) {
    this.completas = completas;
    this.cadenas = cadenas;
    this.bandeja = bandeja;
    this.comandos = comandos;
    this.asr4 = asr4;
    this.avances = new Combiner<>(loteMax, RepositorioCadena.Confirmacion::pedido, lote -> cadenas.avanzar(lote, plazoMs));
  }

  Future<Void> confirmada(UUID pedido, Etapa etapa, ResultadoEtapa resultado) {
    return switch (resultado) {
      case COMPLETADA -> completada(pedido, etapa);
      case RECHAZADA -> cadenas.rechazar(pedido, etapa).compose(rechazo -> rechazo
        ? comandos.compensar(pedido, Etapa.FACTURACION)
        : Future.succeededFuture());
      case COMPENSADA -> {
        LOG.info("Order {}: {} compensated", pedido, etapa);
        yield Future.succeededFuture();
      }
    };
  }

  private Future<Void> completada(UUID pedido, Etapa etapa) {
    Etapa siguiente = etapa.siguiente();
    return avances.submit(new RepositorioCadena.Confirmacion(pedido, etapa, siguiente)).compose(avance -> {
      if (avance == null) return asegurarEnviado(pedido, etapa);
      Future<Void> enviado = siguiente != null
        ? comandos.ejecutar(pedido, siguiente, avance.intento(), avance.lineas())
        : comandos.listo(pedido).onSuccess(ack -> completas.record(Duration.between(avance.iniciada().toInstant(), Instant.now())));
      return enviado.compose(ack -> medir(pedido, etapa, avance));
    });
  }

  /**
   * ASR-4 ends when a retried stage confirms and what follows it is acknowledged by the broker (R11). A confirmation
   * after the escalation is late, not lost: the chain goes on, ASR-4 was missed (the escalation measured it), and the
   * Bandeja's item closes. So does the item of an escalation the operator retried (the stage is on its retry again):
   * the stage came back. Either close is part of this confirmation, so that a failure retries it.
   */
  private Future<Void> medir(UUID pedido, Etapa etapa, RepositorioCadena.Avance avance) {
    if (avance.antes() == EstadoEtapa.EN_REINTENTO && avance.reintentoDesde() != null) {
      asr4.record(Duration.between(avance.reintentoDesde().toInstant(), Instant.now()));
      // Also the Reanudador's own retries (R8), which have no item yet: the statement then finds none, by its index.
      return bandeja.cerrarPorConfirmacion(pedido, etapa, RepositorioBandeja.ETAPA_VOLVIO);
    } else if (avance.antes() == EstadoEtapa.ESCALADA) {
      LOG.info("Order {}: {} confirmed after its escalation; the chain goes on and its inbox item closes", pedido, etapa);
      return bandeja.cerrarPorConfirmacion(pedido, etapa, CONFIRMACION_TARDIA);
    }
    return Future.succeededFuture();
  }

  /** A confirmation that moved nothing: re-send what follows it if that is still in flight (stages dedupe). */
  private Future<Void> asegurarEnviado(UUID pedido, Etapa confirmada) {
    return cadenas.situacion(pedido).compose(found -> {
      if (found.isEmpty()) return Future.succeededFuture();
      RepositorioCadena.Situacion s = found.get();
      // A late confirmation redelivered after its close failed: the item closes now (an open one only; else nothing).
      Future<Void> cerrada = s.estados().get(confirmada) == EstadoEtapa.COMPLETADA
        ? bandeja.cerrarPorConfirmacion(pedido, confirmada, CONFIRMACION_TARDIA) : Future.succeededFuture();
      return cerrada.compose(x -> reenviar(pedido, confirmada, s));
    });
  }

  /** What follows a confirmed stage, sent again if it is still in flight (stages dedupe), or the chain's end. */
  private Future<Void> reenviar(UUID pedido, Etapa confirmada, RepositorioCadena.Situacion s) {
    Etapa siguiente = confirmada.siguiente();
    if (siguiente == null) return s.cadena() == EstadoCadena.LISTO ? comandos.listo(pedido) : Future.succeededFuture();
    boolean anteriorHecha = s.estados().get(confirmada) == EstadoEtapa.COMPLETADA;
    if (anteriorHecha && s.estados().get(siguiente) == EstadoEtapa.EN_CURSO) {
      return comandos.ejecutar(pedido, siguiente, s.intentos().get(siguiente), s.lineas());
    }
    return Future.succeededFuture();
  }
}
