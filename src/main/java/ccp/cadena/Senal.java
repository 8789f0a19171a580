package ccp.cadena;

import java.time.OffsetDateTime;
import java.util.UUID;

/** A signal of RegistroSenales to publish, with the order's vendedor and when the stopped attempt began. */
public record Senal(UUID pedido, Etapa etapa, int intento, String motivo, String vendedor, OffsetDateTime enCursoDesde) {}
