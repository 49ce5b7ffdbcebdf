import { HttpCore, type FetchLike } from './http.js';
import { AccessCodeResource } from './resources/access-code.js';
import { AssistantResource } from './resources/assistant.js';
import { CallResource } from './resources/call.js';
import { CredentialResource } from './resources/credential.js';
import { MetricsResource } from './resources/metrics.js';
import { PhoneNumberResource } from './resources/phone-number.js';

/** The hosted voice platform's REST API, which ours is wire-compatible with. */
export const HOSTED_PLATFORM_BASE_URL = 'https://api.vapi.ai';

/** Used when neither the client nor the call sets `timeoutMs`. */
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface PlatformClientOptions {
  /** The API token, sent as `Authorization: Bearer <token>`. */
  token: string;
  /**
   * Where the API lives: ours is `http(s)://<host>:<port>/platform`; defaults to the hosted
   * platform. Trailing slashes are ignored.
   */
  baseUrl?: string;
  /** How long a call may take before it rejects with `PlatformTimeoutError` (ms; default 30 000; `Infinity` for none). */
  timeoutMs?: number;
  /** Defaults to the global `fetch`. */
  fetch?: FetchLike;
}

/** A client for the platform API, in browsers and Node alike. */
export class PlatformClient {
  /** The base URL in use, without trailing slashes. */
  readonly baseUrl: string;
  readonly assistant: AssistantResource;
  readonly call: CallResource;
  readonly credential: CredentialResource;
  readonly phoneNumber: PhoneNumberResource;
  readonly metrics: MetricsResource;
  /** Our extension: not on the hosted platform. */
  readonly accessCode: AccessCodeResource;

  constructor(options: PlatformClientOptions) {
    if (typeof options.token !== 'string' || options.token === '') {
      throw new TypeError('PlatformClient: give the API token');
    }
    const fetch = options.fetch ?? globalThis.fetch?.bind(globalThis);
    if (typeof fetch !== 'function') {
      throw new TypeError('PlatformClient: no global fetch here; pass options.fetch');
    }
    const http = new HttpCore({
      baseUrl: options.baseUrl ?? HOSTED_PLATFORM_BASE_URL,
      token: options.token,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      fetch,
    });
    this.baseUrl = http.baseUrl;
    this.assistant = new AssistantResource(http);
    this.call = new CallResource(http);
    this.credential = new CredentialResource(http);
    this.phoneNumber = new PhoneNumberResource(http);
    this.metrics = new MetricsResource(http);
    this.accessCode = new AccessCodeResource(http);
  }
}
