import type {
  AccessCode,
  CreateAccessCode,
  CreatedAccessCode,
  ListQuery,
} from '@talkbooth/protocol';
import { idPath, type HttpCore, type RequestOptions } from '../http.js';

/** `GET /access-code` filters: the list filters, and optionally one assistant's codes. */
export type AccessCodeListQuery = ListQuery & { assistantId?: string };

/** `/access-code` (our extension, not on the hosted platform): the codes visitors enter. */
export class AccessCodeResource {
  readonly #http: HttpCore;

  constructor(http: HttpCore) {
    this.#http = http;
  }

  /** `POST /access-code`: the answer is the only time the code itself is shown. */
  async create(body: CreateAccessCode, options?: RequestOptions): Promise<CreatedAccessCode> {
    return this.#http.request({ method: 'POST', path: '/access-code', body, options });
  }

  /** `GET /access-code`, newest first. */
  async list(query?: AccessCodeListQuery, options?: RequestOptions): Promise<AccessCode[]> {
    return this.#http.request({ method: 'GET', path: '/access-code', query, options });
  }

  /** `GET /access-code/{id}`. */
  async get(id: string, options?: RequestOptions): Promise<AccessCode> {
    return this.#http.request({ method: 'GET', path: idPath('/access-code', id), options });
  }

  /** `POST /access-code/{id}/revoke` (no body): answers the revoked code. */
  async revoke(id: string, options?: RequestOptions): Promise<AccessCode> {
    return this.#http.request({
      method: 'POST',
      path: idPath('/access-code', id, '/revoke'),
      options,
    });
  }
}
