/** How an event fared on the bus shared by the instances: put on it, handed from it to this instance, or dropped. */
export type EventStage = 'published' | 'delivered' | 'dropped';

/**
 * The measurements the application and the adapters report. Every label is from a bounded set:
 * route templates and registered service paths, never ids or addresses.
 */
export interface MetricsPort {
  /** An HTTP request to a service route answered; `route` is its template (`/messages/:id`). */
  httpRequest(method: string, route: string, status: number, seconds: number): void;
  /** A service call finished; `status` is 200 for a success, else the error's code (500 for an unexpected one). */
  serviceCall(path: string, method: string, status: number, seconds: number): void;
  /** A socket connected (+1) or went away (-1). */
  socketConnections(change: 1 | -1): void;
  /** An event put on the bus, delivered from it to this instance's clients, or dropped (bus down, too large). */
  busEvent(stage: EventStage): void;
  /** A store call failed by the store's own fault (an unreachable database, an unexpected error), not a 4xx answer. */
  storeError(collection: string, operation: string): void;
  /** A call to a service bound to another server failed there or on the way (the path of the binding). */
  remoteBindingError(path: string): void;
}

/** The measurements as a scraper reads them (Prometheus text). */
export interface MetricsExposition {
  readonly contentType: string;
  text(): Promise<string>;
}
