package ccp.carga;

import ccp.Main;
import ccp.platform.config.ConfigException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.ext.web.client.WebClient;

import java.net.URI;

/** What the load commands share: their flags, their HTTP client and reading the system's own histograms. */
final class Carga {

  private Carga() {}

  static int positive(Main.Arguments arguments, String name, String fallback) {
    String raw = arguments.flag(name, fallback);
    try {
      int value = Integer.parseInt(raw);
      if (value > 0) return value;
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new ConfigException("--" + name + "='" + raw + "' must be a positive integer");
  }

  static double fraction(Main.Arguments arguments, String name, String fallback) {
    String raw = arguments.flag(name, fallback);
    try {
      double value = Double.parseDouble(raw);
      if (value >= 0 && value <= 1) return value;
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw new ConfigException("--" + name + "='" + raw + "' must be a fraction from 0 to 1");
  }

  static URI uri(Main.Arguments arguments, String name, String fallback) {
    String raw = arguments.flag(name, fallback);
    try {
      URI uri = URI.create(raw);
      if (uri.getHost() != null && uri.getPort() > 0) return uri;
    } catch (IllegalArgumentException ignored) {
      // reported below
    }
    throw new ConfigException("--" + name + "='" + raw + "' must be a URL with host and port");
  }

  /** The hot path's client: bodies and headers are built once, since the driver shares the CPU it measures. */
  static HttpClient client(Vertx vertx, int connections) {
    return vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true), new PoolOptions().setHttp1MaxSize(connections));
  }

  static Future<String> scrape(WebClient client, URI metrics) {
    return client.getAbs(metrics.toString()).send().map(response -> response.bodyAsString());
  }
}
