package ccp.platform.http;

import io.vertx.ext.web.RoutingContext;

/** The authenticated caller: the token's subject and the profile its issuer stated. */
public record Actor(String id, String perfil) {

  private static final String KEY = "ccp.actor";

  public static Actor of(RoutingContext ctx) {
    return ctx.get(KEY);
  }

  void attachTo(RoutingContext ctx) {
    ctx.put(KEY, this);
  }
}
