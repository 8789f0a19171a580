package ccp.platform.infra;

import com.sun.net.httpserver.HttpServer;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The development issuer's public JWK Set on loopback, {@code GET /jwks.json}: where a laptop's {@code jwt.jwks-url}
 * points, so that the roles read their keys by the same path as from Keycloak. It publishes public keys only.
 */
final class JwksEndpoint implements AutoCloseable {

  private final HttpServer server;

  private JwksEndpoint(HttpServer server) {
    this.server = server;
  }

  /** {@code port} 0: a free one. */
  static JwksEndpoint start(JsonObject jwks, int port) throws IOException {
    byte[] body = jwks.encode().getBytes(StandardCharsets.UTF_8);
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
    server.createContext("/jwks.json", exchange -> {
      try (exchange; OutputStream out = exchange.getResponseBody()) {
        if (!"GET".equals(exchange.getRequestMethod())) {
          exchange.sendResponseHeaders(405, -1);
          return;
        }
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        out.write(body);
      }
    });
    server.start();
    return new JwksEndpoint(server);
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/jwks.json";
  }

  @Override
  public void close() {
    server.stop(0);
  }

  @Override
  public String toString() {
    return "JWK Set endpoint " + url();
  }
}
