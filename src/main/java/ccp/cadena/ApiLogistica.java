package ccp.cadena;

import ccp.platform.http.JsonBody;
import ccp.platform.http.JsonResponse;
import ccp.platform.http.Tokens;
import ccp.platform.role.AppApi;
import ccp.platform.role.RoleContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

/**
 * Logística's finished orders for the person responsible (profile OPERADOR: the view's "Responsable del pedido escalado
 * consulta la Bandeja y Logística"), in the order Logística recorded them, a page at a time. A page ends with the cursor
 * of the next ({@code siguiente}), or null when it is the last: keyset paging, so a page costs the same at any depth.
 */
final class ApiLogistica implements AppApi {

  private static final int LIMITE_POR_DEFECTO = 50;
  /** Before every recorded order: the first page's cursor. */
  private static final Cursor INICIO = new Cursor(Instant.EPOCH.atOffset(ZoneOffset.UTC), new UUID(0, 0));

  private final RepositorioLogistica listos;

  ApiLogistica(RoleContext role) {
    this.listos = new RepositorioLogistica(role.sql());
  }

  @Override
  public void mount(Router router) {
    router.route("/v1/logistica*").handler(Tokens.requirePerfil("OPERADOR"));
    router.get("/v1/logistica/pedidos-listos").handler(this::listar);
  }

  @Override
  public Future<Void> close() {
    return Future.succeededFuture();
  }

  private void listar(RoutingContext ctx) {
    Cursor desde = Cursor.leer(ctx.queryParams().get("desde"));
    int limite = limite(ctx.queryParams().get("limite"));
    // One more than the page: whether a next page exists, without counting.
    listos.pedidosListos(desde.recibido(), desde.pedido(), limite + 1).onSuccess(listos -> {
      List<RepositorioLogistica.PedidoListo> pagina = listos.subList(0, Math.min(limite, listos.size()));
      JsonArray pedidos = new JsonArray();
      pagina.forEach(p -> pedidos.add(p.json()));
      RepositorioLogistica.PedidoListo ultimo = pagina.isEmpty() ? null : pagina.get(pagina.size() - 1);
      String siguiente = listos.size() > limite ? new Cursor(ultimo.recibido(), ultimo.pedido()).texto() : null;
      JsonResponse.ok(ctx, new JsonObject().put("pedidos", pedidos).put("siguiente", siguiente));
    }).onFailure(ctx::fail);
  }

  /** The contract bounds it (1 to 200). */
  private static int limite(String texto) {
    return texto == null ? LIMITE_POR_DEFECTO : Integer.parseInt(texto);
  }

  /** Where a page starts: after this order, recorded at {@code recibido}. Opaque to the App (base64url). */
  record Cursor(OffsetDateTime recibido, UUID pedido) {

    static Cursor leer(String texto) {
      if (texto == null) return INICIO;
      try {
        String[] partes = new String(Base64.getUrlDecoder().decode(texto), StandardCharsets.UTF_8).split("\\|", -1);
        if (partes.length != 2) throw new IllegalArgumentException("two parts expected");
        return new Cursor(Instant.parse(partes[0]).atOffset(ZoneOffset.UTC), UUID.fromString(partes[1]));
      } catch (RuntimeException e) {
        throw new JsonBody.BadRequest("desde", "must be the siguiente of a previous page");
      }
    }

    String texto() {
      String claro = recibido.toInstant() + "|" + pedido;
      return Base64.getUrlEncoder().withoutPadding().encodeToString(claro.getBytes(StandardCharsets.UTF_8));
    }
  }
}
