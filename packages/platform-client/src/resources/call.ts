import type {
  Call,
  CallControl,
  CallControlAccepted,
  CallListQuery,
  CreatePhoneCall,
  CreateWebCall,
} from '@talkbooth/protocol';
import { idPath, type HttpCore, type RequestOptions } from '../http.js';

/** `/call`: web and phone calls. */
export class CallResource {
  readonly #http: HttpCore;

  constructor(http: HttpCore) {
    this.#http = http;
  }

  /** `GET /call`, newest first; `assistantId` narrows to one assistant. */
  async list(query?: CallListQuery, options?: RequestOptions): Promise<Call[]> {
    return this.#http.request({ method: 'GET', path: '/call', query, options });
  }

  /** `GET /call/{id}`. */
  async get(id: string, options?: RequestOptions): Promise<Call> {
    return this.#http.request({ method: 'GET', path: idPath('/call', id), options });
  }

  /** `POST /call/phone`: an outbound phone call. */
  async createPhone(body: CreatePhoneCall, options?: RequestOptions): Promise<Call> {
    return this.#http.request({ method: 'POST', path: '/call/phone', body, options });
  }

  /** `POST /call/web`: a browser call; join it at the answer's `webCallUrl`. */
  async createWeb(body: CreateWebCall, options?: RequestOptions): Promise<Call> {
    return this.#http.request({ method: 'POST', path: '/call/web', body, options });
  }

  /**
   * `POST /call/{id}/control`: controls a live call wherever it runs: speak a line, add a
   * message, mute or unmute the assistant, or end the call (as `manually-canceled`).
   */
  async control(
    id: string,
    control: CallControl,
    options?: RequestOptions,
  ): Promise<CallControlAccepted> {
    return this.#http.request({
      method: 'POST',
      path: idPath('/call', id, '/control'),
      body: control,
      options,
    });
  }
}
