import type { Metrics, MetricsQuery } from '@talkbooth/protocol';
import type { HttpCore, RequestOptions } from '../http.js';

/** `/metrics`: cost and call totals, per UTC day. */
export class MetricsResource {
  readonly #http: HttpCore;

  constructor(http: HttpCore) {
    this.#http = http;
  }

  /** `GET /metrics?rangeStart&rangeEnd`; the range defaults to the 30 days up to now. */
  async get(query?: MetricsQuery, options?: RequestOptions): Promise<Metrics> {
    return this.#http.request({ method: 'GET', path: '/metrics', query, options });
  }
}
