import type {
  BuyPhoneNumber,
  ImportTwilio,
  ImportVonage,
  ListQuery,
  PhoneNumber,
  UpdatePhoneNumber,
} from '@talkbooth/protocol';
import { idPath, type HttpCore, type RequestOptions } from '../http.js';

/** `/phone-number`: numbers bought or imported from Twilio and Vonage. */
export class PhoneNumberResource {
  readonly #http: HttpCore;

  constructor(http: HttpCore) {
    this.#http = http;
  }

  /** `POST /phone-number/buy`. */
  async buy(body: BuyPhoneNumber, options?: RequestOptions): Promise<PhoneNumber> {
    return this.#http.request({ method: 'POST', path: '/phone-number/buy', body, options });
  }

  /** `POST /phone-number/import/twilio`. */
  async importTwilio(body: ImportTwilio, options?: RequestOptions): Promise<PhoneNumber> {
    return this.#http.request({
      method: 'POST',
      path: '/phone-number/import/twilio',
      body,
      options,
    });
  }

  /** `POST /phone-number/import/vonage`. */
  async importVonage(body: ImportVonage, options?: RequestOptions): Promise<PhoneNumber> {
    return this.#http.request({
      method: 'POST',
      path: '/phone-number/import/vonage',
      body,
      options,
    });
  }

  /** `GET /phone-number`, newest first. */
  async list(query?: ListQuery, options?: RequestOptions): Promise<PhoneNumber[]> {
    return this.#http.request({ method: 'GET', path: '/phone-number', query, options });
  }

  /** `GET /phone-number/{id}`. */
  async get(id: string, options?: RequestOptions): Promise<PhoneNumber> {
    return this.#http.request({ method: 'GET', path: idPath('/phone-number', id), options });
  }

  /** `PATCH /phone-number/{id}`: `null` clears the assistant or server URL. */
  async update(
    id: string,
    body: UpdatePhoneNumber,
    options?: RequestOptions,
  ): Promise<PhoneNumber> {
    return this.#http.request({
      method: 'PATCH',
      path: idPath('/phone-number', id),
      body,
      options,
    });
  }

  /** `DELETE /phone-number/{id}`: answers the deleted number. */
  async delete(id: string, options?: RequestOptions): Promise<PhoneNumber> {
    return this.#http.request({ method: 'DELETE', path: idPath('/phone-number', id), options });
  }
}
