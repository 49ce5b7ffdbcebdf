import type { CreateCredential, Credential, ListQuery } from '@talkbooth/protocol';
import { idPath, type HttpCore, type RequestOptions } from '../http.js';

/** `/credential`: provider keys; secrets are write-only and come back masked. */
export class CredentialResource {
  readonly #http: HttpCore;

  constructor(http: HttpCore) {
    this.#http = http;
  }

  /** `POST /credential`. */
  async create(body: CreateCredential, options?: RequestOptions): Promise<Credential> {
    return this.#http.request({ method: 'POST', path: '/credential', body, options });
  }

  /** `GET /credential`, newest first. */
  async list(query?: ListQuery, options?: RequestOptions): Promise<Credential[]> {
    return this.#http.request({ method: 'GET', path: '/credential', query, options });
  }

  /** `GET /credential/{id}`. */
  async get(id: string, options?: RequestOptions): Promise<Credential> {
    return this.#http.request({ method: 'GET', path: idPath('/credential', id), options });
  }

  /** `PUT /credential/{id}`: replaces the credential. */
  async update(id: string, body: CreateCredential, options?: RequestOptions): Promise<Credential> {
    return this.#http.request({ method: 'PUT', path: idPath('/credential', id), body, options });
  }

  /** `DELETE /credential/{id}`: answers the deleted credential. */
  async delete(id: string, options?: RequestOptions): Promise<Credential> {
    return this.#http.request({ method: 'DELETE', path: idPath('/credential', id), options });
  }
}
