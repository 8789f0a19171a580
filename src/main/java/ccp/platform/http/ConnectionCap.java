package ccp.platform.http;

import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One server verticle's share of {@code http.max-connections}. At the cap a new connection takes the place of the
 * oldest idle one (no request in flight: one that never sent a complete request, or a keep-alive connection between
 * requests), so idle and half-open connections cannot lock new clients out; only when every connection is serving a
 * request is the new one closed at once. The state is the verticle's own, touched only on its event loop.
 */
final class ConnectionCap {

  private final int share;
  // Insertion order: the oldest connection first. The value is its requests in flight.
  private final Map<HttpConnection, int[]> open = new LinkedHashMap<>();

  ConnectionCap(int share) {
    this.share = share;
  }

  void admit(HttpConnection connection) {
    if (open.size() >= share && !evictOldestIdle()) {
      connection.close();
      return;
    }
    open.put(connection, new int[1]);
    connection.closeHandler(closed -> open.remove(connection));
  }

  /** Counts {@code request} as in flight on its connection until its response ends. */
  void serving(HttpServerRequest request) {
    int[] inFlight = open.get(request.connection());
    if (inFlight == null) return;
    inFlight[0]++;
    request.response().endHandler(ended -> inFlight[0]--);
  }

  private boolean evictOldestIdle() {
    for (Iterator<Map.Entry<HttpConnection, int[]>> it = open.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<HttpConnection, int[]> entry = it.next();
      if (entry.getValue()[0] == 0) {
        it.remove();
        entry.getKey().close();
        return true;
      }
    }
    return false;
  }
}
