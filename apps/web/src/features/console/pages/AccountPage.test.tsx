import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Account } from '@talkbooth/protocol';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { errorResponse, jsonResponse } from '../../../test/render-app';
import { AccountContext } from '../account-context';
import { AccountPage } from './AccountPage';

const ADMIN: Account = {
  id: 'u-admin',
  username: 'Ada',
  email: 'ada@example.com',
  role: 'admin',
  organisation: { id: 'org-1', name: 'Riverside Clinic' },
};

function renderPage(signedOut = vi.fn()) {
  render(
    <MemoryRouter>
      <AccountContext.Provider value={{ account: ADMIN, signedOut }}>
        <AccountPage />
      </AccountContext.Provider>
    </MemoryRouter>,
  );
  return { signedOut };
}

/** The password change answers `answer`; the CSRF token is always there. */
function stubPassword(answer: () => Response) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    if (path === '/console/api/csrf') return jsonResponse({ token: 'csrf-token-1' });
    if (path === '/console/api/account/password') return answer();
    return errorResponse(404, 'No stub');
  });
}

const fields = () => ({
  current: screen.getByLabelText(/^Current password/, { selector: 'input' }),
  next: screen.getByLabelText(/^New password/, { selector: 'input' }),
});

async function fillAndSubmit(current = 'old password 1', next = 'new password 22') {
  const user = userEvent.setup();
  const f = fields();
  if (current) await user.type(f.current, current);
  if (next) await user.type(f.next, next);
  await user.click(screen.getByRole('button', { name: 'Change password' }));
  return f;
}

// Real typing and MUI transitions: slow when the whole suite runs side by side.
describe('the account page', { timeout: 20_000 }, () => {
  it('says who you are', () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Your account' })).toBeInTheDocument();
    const facts = screen.getByRole('heading', { name: 'Who you are' }).parentElement!;
    expect(facts).toHaveTextContent(/Name\s*Ada/);
    expect(facts).toHaveTextContent(/E-mail\s*ada@example\.com/);
    expect(facts).toHaveTextContent(/Role\s*Admin/);
    expect(facts).toHaveTextContent(/Organisation\s*Riverside Clinic/);
  });

  it('changes the password with the CSRF token, says so and clears the fields', async () => {
    const spy = stubPassword(() => new Response(null, { status: 204 }));
    renderPage();
    const { current, next } = await fillAndSubmit();
    expect(await screen.findByRole('status')).toHaveTextContent('Your password has been changed.');
    const call = spy.mock.calls.find(([input]) => String(input).endsWith('/account/password'));
    expect(call?.[1]?.method).toBe('POST');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      currentPassword: 'old password 1',
      newPassword: 'new password 22',
    });
    expect((call?.[1]?.headers as Record<string, string>)['x-csrf-token']).toBe('csrf-token-1');
    expect(current).toHaveValue('');
    expect(next).toHaveValue('');
    expect(current).toHaveAttribute('type', 'password');
  });

  it("shows the server's field message on the field", async () => {
    stubPassword(() =>
      errorResponse(400, 'Your current password is not right.', {
        error: 'Bad Request',
        fields: { currentPassword: 'This is not your current password.' },
      }),
    );
    renderPage();
    const { current, next } = await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your current password is not right.',
    );
    expect(current).toHaveAttribute('aria-invalid', 'true');
    expect(current).toHaveAccessibleDescription('This is not your current password.');
    expect(next).toHaveAttribute('aria-invalid', 'false');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('checks the fields before sending', async () => {
    const spy = stubPassword(() => new Response(null, { status: 204 }));
    renderPage();
    const { current, next } = await fillAndSubmit('', 'short');
    expect(current).toHaveAccessibleDescription('Enter your current password.');
    expect(next).toHaveAccessibleDescription(/at least \d+ characters/);
    expect(spy).not.toHaveBeenCalled();
  });

  it('sends the person to sign in when the session ended', async () => {
    stubPassword(() => errorResponse(401, 'Sign in to the console first.'));
    const { signedOut } = renderPage();
    await fillAndSubmit();
    await vi.waitFor(() => expect(signedOut).toHaveBeenCalled());
  });
});
