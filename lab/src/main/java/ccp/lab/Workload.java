package ccp.lab;

/** What one run does: {@code requests} reservations of 1 unit by {@code workers} threads over {@code products} ids. */
record Workload(int stock, int requests, int workers, int products, TrabajoLento trabajo) {

  /** The reference's simulation: stock 10,000, 100,000 requests, 100 workers, one product. */
  static final Workload REFERENCIA = new Workload(10_000, 100_000, 100, 1, TrabajoLento.REFERENCIA);

  /** Fewer requests than this would measure thread start-up more than the strategy. */
  private static final int MIN_REQUESTS = 100;

  Workload withWorkers(int n) {
    return new Workload(stock, requests, n, products, trabajo);
  }

  /**
   * Seconds the run should take: the slow completion shared by the workers, or the time each request keeps the others
   * out ({@code serialMs}), whichever is longer. An estimate, to size a slice, not a measurement.
   */
  double estimatedSeconds(double serialMs) {
    double perRequestMs = Math.max(serialMs, (trabajo.completarMs() + 0.05) / workers);
    return requests * perRequestMs / 1000;
  }

  /** The same workload scaled to {@code fraction} of its requests, stock scaled alike so approvals keep their share. */
  Workload slice(double fraction) {
    int sliced = (int) Math.min(requests, Math.max(MIN_REQUESTS, Math.round(requests * fraction)));
    int slicedStock = (int) Math.max(1, Math.round((double) stock * sliced / requests));
    return new Workload(slicedStock, sliced, workers, products, trabajo);
  }
}
