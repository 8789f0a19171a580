package ccp.carga;

import ccp.platform.config.ConfigException;
import ccp.platform.config.Settings;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.ext.web.client.WebClient;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.net.URI;

/**
 * What the load commands share: the types of their flags (picocli names the flag when a value is rejected, and the
 * command exits 2), their HTTP client and reading the system's own histograms.
 */
final class Carga {

  private Carga() {}

  /** A rate, a duration or a count: zero would make a run that measures nothing. */
  static final class Positive implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String raw) {
      try {
        int value = Integer.parseInt(raw.trim());
        if (value > 0) return value;
      } catch (NumberFormatException ignored) {
        // reported below
      }
      throw new TypeConversionException("'" + raw + "' must be a positive integer");
    }
  }

  static final class Fraction implements ITypeConverter<Double> {
    @Override
    public Double convert(String raw) {
      try {
        double value = Double.parseDouble(raw.trim());
        if (value >= 0 && value <= 1) return value;
      } catch (NumberFormatException ignored) {
        // reported below
      }
      throw new TypeConversionException("'" + raw + "' must be a fraction from 0 to 1");
    }
  }

  /** An absolute URL with an explicit port: the hot path's requests are built from its host and port. */
  static final class Url implements ITypeConverter<URI> {
    @Override
    public URI convert(String raw) {
      try {
        URI uri = URI.create(raw);
        if (uri.getHost() != null && uri.getPort() > 0) return uri;
      } catch (IllegalArgumentException ignored) {
        // reported below
      }
      throw new TypeConversionException("'" + raw + "' must be a URL with host and port");
    }
  }

  /**
   * The URL given with {@code option}, else this machine at the configured port. A configured 0 means a port chosen
   * when the system starts, which the driver cannot know.
   */
  static URI orLocal(URI given, String option, Settings settings, String port, String path) {
    if (given != null) return given;
    int configured = settings.integer(port);
    if (configured == 0) throw new ConfigException(option + " is needed: " + port + " is 0 (a port chosen at start-up)");
    return URI.create("http://127.0.0.1:" + configured + path);
  }

  /** The hot path's client: bodies and headers are built once, since the driver shares the CPU it measures. */
  static HttpClient client(Vertx vertx, int connections) {
    return vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true), new PoolOptions().setHttp1MaxSize(connections));
  }

  static Future<String> scrape(WebClient client, URI metrics) {
    return client.getAbs(metrics.toString()).send().map(response -> response.bodyAsString());
  }
}
