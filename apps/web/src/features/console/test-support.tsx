import { render } from '@testing-library/react';
import type { Account } from '@talkbooth/protocol';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { errorResponse, jsonResponse } from '../../test/render-app';
import { AccountContext } from './account-context';

/** A console page as the shell renders it: in a router, with `account` signed in. */
export function renderConsolePage(ui: ReactNode, account: Account) {
  return render(
    <MemoryRouter>
      <AccountContext.Provider value={{ account, signedOut: vi.fn() }}>
        {ui}
      </AccountContext.Provider>
    </MemoryRouter>,
  );
}

export type StubHandler = (init: RequestInit) => Response | Promise<Response>;

/** Answers console API requests by "METHOD /path"; the CSRF token is always there. */
export function stubConsoleApi(routes: Record<string, StubHandler>) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init.method ?? 'GET'} ${url.pathname}`;
    if (key === 'GET /console/api/csrf') return jsonResponse({ token: 'csrf-token-1' });
    const route = routes[key];
    return route ? route(init) : errorResponse(404, `No stub for ${key}`);
  });
}

/** The requests a stub got for one method and path. */
export const callsTo = (spy: ReturnType<typeof stubConsoleApi>, method: string, path: string) =>
  spy.mock.calls.filter(
    ([input, init]) =>
      (init?.method ?? 'GET') === method && new URL(String(input), 'http://x').pathname === path,
  );
export const bodyOf = (init: RequestInit | undefined) => JSON.parse(String(init?.body)) as unknown;
export const headersOf = (init: RequestInit | undefined) => init?.headers as Record<string, string>;
