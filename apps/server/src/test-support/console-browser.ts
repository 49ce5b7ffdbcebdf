import { PlatformClient } from '@talkbooth/platform-client';
import type { TestResponse } from './test-server.js';

/**
 * What a browser does for the console page, over plain HTTP: keeps cookies (the session
 * and the CSRF secret), fetches the CSRF token and sends it with every change. Tests use
 * it to act as one signed-in person.
 */
export class ConsoleBrowser {
  readonly cookies = new Map<string, string>();
  private csrf: string | undefined;

  constructor(readonly baseUrl: string) {}

  /** The raw Set-Cookie headers of the last answer. */
  lastSetCookies: string[] = [];

  async request(
    method: string,
    pathname: string,
    body?: unknown,
    options: { csrf?: boolean; headers?: Record<string, string> } = {},
  ): Promise<TestResponse> {
    const changes = !['GET', 'HEAD'].includes(method);
    if (changes && options.csrf !== false) await this.csrfToken();
    const headers: Record<string, string> = { ...options.headers };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (changes && options.csrf !== false && this.csrf !== undefined) {
      headers['x-csrf-token'] = this.csrf;
    }
    const cookie = this.cookieHeader();
    if (cookie !== '') headers.cookie = cookie;
    const response = await fetch(this.baseUrl + pathname, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    this.keepCookies(response.headers);
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  }

  get(pathname: string) {
    return this.request('GET', pathname);
  }

  post(pathname: string, body?: unknown, options?: { csrf?: boolean }) {
    return this.request('POST', pathname, body ?? {}, options);
  }

  async csrfToken(): Promise<string> {
    if (this.csrf === undefined) {
      const answer = await this.request('GET', '/console/api/csrf');
      this.csrf = (answer.json as { token: string }).token;
    }
    return this.csrf;
  }

  async register(account: {
    username: string;
    email: string;
    password: string;
    invite?: string;
  }): Promise<TestResponse> {
    return this.request('POST', '/api/register', account);
  }

  /** Signs in; throws unless the server accepts. */
  async signIn(email: string, password: string): Promise<TestResponse> {
    const answer = await this.post('/console/api/sign-in', { email, password });
    if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.status} ${answer.text}`);
    return answer;
  }

  /** Registers and signs in. */
  async join(account: { username: string; email: string; password: string; invite?: string }) {
    const registered = await this.register(account);
    if (registered.status !== 201) {
      throw new Error(`registration failed: ${registered.status} ${registered.text}`);
    }
    await this.signIn(account.email, account.password);
    return registered.json as { id: string; organisation: { id: string }; role: string };
  }

  /** The typed platform client acting with this session (no key), as the console does. */
  platform(): PlatformClient {
    return new PlatformClient({
      // The client needs a token; the session replaces it, so the header is dropped below.
      token: 'console-session',
      baseUrl: `${this.baseUrl}/platform`,
      fetch: async (input, init) => {
        const headers = new Headers(init?.headers);
        headers.delete('authorization');
        const cookie = this.cookieHeader();
        if (cookie !== '') headers.set('cookie', cookie);
        if (!['GET', 'HEAD', undefined].includes(init?.method)) {
          headers.set('x-csrf-token', await this.csrfToken());
        }
        const response = await fetch(input, { ...init, headers });
        this.keepCookies(response.headers);
        return response;
      },
    });
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private keepCookies(headers: Headers): void {
    this.lastSetCookies = headers.getSetCookie();
    for (const line of this.lastSetCookies) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = /max-age=0|expires=Thu, 01 Jan 1970/i.test(line);
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}
