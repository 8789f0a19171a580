package ccp.platform.http;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The tokens one handler has verified, the least recently used forgotten past {@code max}: a plain map, confined to
 * the verticle that routes with the handler ({@link Tokens#required()}, {@link PeerVerifier#admit}).
 */
final class Verificados {

  private Verificados() {}

  static <V> Map<String, V> hasta(int max) {
    return new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
        return size() > max;
      }
    };
  }
}
