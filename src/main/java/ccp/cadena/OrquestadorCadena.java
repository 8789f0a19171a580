package ccp.cadena;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.UUID;

/**
 * OrquestadorCadena, the part of the Coordinador that keeps the order of the stages (step 11): a confirmed stage
 * becomes COMPLETADA and the next one starts (back to step 5); after the last, {@code pedido.listo} (step 12). Every
 * transition is one conditional update, so a repeated confirmation changes nothing — it only makes sure that what
 * the first one should have sent was sent (a crash may have come between the update and the publish).
 */
final class OrquestadorCadena {

  private static final Logger LOG = LoggerFactory.getLogger(OrquestadorCadena.class);

  private final RepositorioCadena cadenas;
  private final PublicadorComandos comandos;
  private final long plazoMs;

  OrquestadorCadena(RepositorioCadena cadenas, PublicadorComandos comandos, long plazoMs) {
    this.cadenas = cadenas;
    this.comandos = comandos;
    this.plazoMs = plazoMs;
  }

  Future<Void> confirmada(UUID pedido, Etapa etapa, String resultado) {
    return switch (resultado) {
      case "COMPLETADA" -> completada(pedido, etapa);
      case "RECHAZADA" -> cadenas.rechazar(pedido, etapa).compose(rechazo -> rechazo
        ? comandos.compensar(pedido, Etapa.FACTURACION)
        : Future.succeededFuture());
      case "COMPENSADA" -> {
        LOG.info("Order {}: invoice compensated", pedido);
        yield Future.succeededFuture();
      }
      default -> Future.failedFuture(new IllegalArgumentException("unknown resultado " + resultado));
    };
  }

  private Future<Void> completada(UUID pedido, Etapa etapa) {
    Etapa siguiente = etapa.siguiente();
    if (siguiente == null) {
      return cadenas.terminar(pedido, etapa).compose(termino -> termino ? comandos.listo(pedido) : asegurarEnviado(pedido, etapa));
    }
    return cadenas.avanzar(pedido, etapa, siguiente, plazoMs).compose(avance -> avance.isPresent()
      ? comandos.ejecutar(pedido, siguiente, avance.get().getInteger("intento"), avance.get().getJsonArray("lineas"))
      : asegurarEnviado(pedido, etapa));
  }

  /** A confirmation that moved nothing: re-send what follows it if that is still in flight (stages dedupe). */
  private Future<Void> asegurarEnviado(UUID pedido, Etapa confirmada) {
    return cadenas.situacion(pedido).compose(found -> {
      if (found.isEmpty()) return Future.succeededFuture();
      RepositorioCadena.Situacion s = found.get();
      Etapa siguiente = confirmada.siguiente();
      if (siguiente == null) return "LISTO".equals(s.cadena()) ? comandos.listo(pedido) : Future.succeededFuture();
      int i = siguiente.ordinal();
      String estado = s.estados().get(i);
      boolean anteriorHecha = "COMPLETADA".equals(s.estados().get(confirmada.ordinal()));
      if (anteriorHecha && "EN_CURSO".equals(estado)) {
        JsonArray lineas = s.lineas();
        return comandos.ejecutar(pedido, siguiente, s.intentos().get(i), lineas);
      }
      return Future.succeededFuture();
    });
  }
}
