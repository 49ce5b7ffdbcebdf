import type { Assistant, AssistantDto, AssistantPatch, ListQuery } from '@talkbooth/protocol';
import { idPath, type HttpCore, type RequestOptions } from '../http.js';

/** `/assistant`: the assistants of the organisation the token belongs to. */
export class AssistantResource {
  readonly #http: HttpCore;

  constructor(http: HttpCore) {
    this.#http = http;
  }

  /** `POST /assistant`. */
  async create(body: AssistantDto, options?: RequestOptions): Promise<Assistant> {
    return this.#http.request({ method: 'POST', path: '/assistant', body, options });
  }

  /** `GET /assistant`, newest first. */
  async list(query?: ListQuery, options?: RequestOptions): Promise<Assistant[]> {
    return this.#http.request({ method: 'GET', path: '/assistant', query, options });
  }

  /** `GET /assistant/{id}`. */
  async get(id: string, options?: RequestOptions): Promise<Assistant> {
    return this.#http.request({ method: 'GET', path: idPath('/assistant', id), options });
  }

  /** `PATCH /assistant/{id}`: a JSON merge patch (nested objects merge, `null` removes). */
  async update(id: string, patch: AssistantPatch, options?: RequestOptions): Promise<Assistant> {
    return this.#http.request({
      method: 'PATCH',
      path: idPath('/assistant', id),
      body: patch,
      options,
    });
  }

  /** `PUT /assistant/{id}`: replaces the whole assistant. */
  async replace(id: string, body: AssistantDto, options?: RequestOptions): Promise<Assistant> {
    return this.#http.request({ method: 'PUT', path: idPath('/assistant', id), body, options });
  }

  /** `DELETE /assistant/{id}`: answers the deleted assistant. */
  async delete(id: string, options?: RequestOptions): Promise<Assistant> {
    return this.#http.request({ method: 'DELETE', path: idPath('/assistant', id), options });
  }
}
