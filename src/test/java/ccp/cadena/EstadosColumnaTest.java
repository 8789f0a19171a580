package ccp.cadena;

import ccp.platform.config.Settings;
import ccp.platform.db.Migrations;
import ccp.platform.db.PgConfig;
import ccp.support.Db;
import ccp.support.SharedInfra;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("The chain's state columns accept exactly the states the code names (no FALLIDA, which nothing wrote)")
class EstadosColumnaTest {

  private static final Pattern NOMBRE = Pattern.compile("'([A-Z_]+)'::text");

  @Test
  @DisplayName("cadena_etapa.estado ↔ EstadoEtapa and cadenas.estado ↔ EstadoCadena, after every migration")
  void columnsMatchTheEnums() {
    Settings settings = SharedInfra.settings();
    Migrations.migrate(PgConfig.of(settings, "cadena"), false, List.of("cadena"));

    assertThat(permitidos(settings, "cadena_etapa")).containsExactlyInAnyOrderElementsOf(nombres(EstadoEtapa.values()));
    assertThat(permitidos(settings, "cadenas")).containsExactlyInAnyOrderElementsOf(nombres(EstadoCadena.values()));
  }

  /** The values the {@code estado} CHECK of {@code cadena.<tabla>} allows, as PostgreSQL holds the constraint. */
  private static List<String> permitidos(Settings settings, String tabla) {
    List<String> definicion = Db.strings(settings, "SELECT pg_get_constraintdef(k.oid) FROM pg_constraint k "
      + "JOIN pg_class t ON t.oid = k.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace "
      + "WHERE n.nspname = 'cadena' AND t.relname = ? AND k.contype = 'c' AND k.conname = ?", tabla, tabla + "_estado_check");
    assertThat(definicion).hasSize(1);
    return NOMBRE.matcher(definicion.get(0)).results().map(m -> m.group(1)).toList();
  }

  private static List<String> nombres(Enum<?>[] estados) {
    return Arrays.stream(estados).map(Enum::name).toList();
  }
}
