import { screen, within, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  errorResponse,
  jsonResponse,
  mockFetch,
  renderApp,
  requestBody,
} from '../../test/render-app';

const USER = {
  id: 'u-1',
  username: 'ada',
  email: 'ada@example.com',
  createdAt: '2025-05-01T10:00:00Z',
  organisation: { id: 'org-1', name: "ada's organisation" },
  role: 'owner',
};

/** The app at `path`, once the lazily loaded registration form is there. */
async function renderRegisterPage(path = '/register') {
  renderApp({ path });
  await screen.findByRole('heading', { level: 1, name: 'Register' });
}

function fields() {
  return {
    username: screen.getByRole('textbox', { name: /Username/ }),
    email: screen.getByRole('textbox', { name: /Email/ }),
    password: screen.getByLabelText(/^Password/, { selector: 'input' }),
  };
}

async function fillAndSubmit(
  values = { username: 'ada', email: 'ada@example.com', password: 'correct horse' },
) {
  const user = userEvent.setup();
  const f = fields();
  await user.type(f.username, values.username);
  await user.type(f.email, values.email);
  await user.type(f.password, values.password);
  await user.click(screen.getByRole('button', { name: 'Register' }));
  return { user, ...f };
}

// The page's chunk is loaded lazily, with the shared zod schemas the first page does without:
// transform it once up front, so the first test's wait is for React, not for Vitest.
beforeAll(() => import('./RegisterPage'), 60_000);

describe('registration', () => {
  it('has required, labelled fields with placeholders, an email type and a masked password', async () => {
    await renderRegisterPage('/register');
    expect(screen.getByRole('heading', { level: 1, name: 'Register' })).toBeInTheDocument();
    const { username, email, password } = fields();
    expect(username).toHaveAttribute('placeholder', 'Username');
    expect(email).toHaveAttribute('placeholder', 'Email');
    expect(password).toHaveAttribute('placeholder', 'Password');
    for (const field of [username, email, password]) expect(field).toBeRequired();
    expect(email).toHaveAttribute('type', 'email');
    expect(password).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Register' }).closest('form')).toHaveAttribute(
      'novalidate',
    );
    expect(screen.getByRole('link', { name: 'Talk to the assistant' })).toHaveAttribute(
      'href',
      '/',
    );
  });

  it('shows and hides the password with the toggle', async () => {
    await renderRegisterPage('/register');
    const user = userEvent.setup();
    const { password } = fields();
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
  });

  it('registers, names the user, clears the password and logs without the password', async () => {
    const fetchSpy = mockFetch(jsonResponse(USER, { status: 201 }));
    await renderRegisterPage('/register');
    const { password, username } = await fillAndSubmit();

    const welcome = await screen.findByRole('status');
    expect(welcome).toHaveTextContent(
      "Welcome, ada! Your account has been created and owns ada's organisation.",
    );
    expect(within(welcome).getByRole('link', { name: 'Sign in to the console' })).toHaveAttribute(
      'href',
      '/console/login',
    );
    expect(fetchSpy.mock.calls[0]?.[0]).toBe('/api/register');
    expect(requestBody(fetchSpy)).toEqual({
      username: 'ada',
      email: 'ada@example.com',
      password: 'correct horse',
    });
    expect(password).toHaveValue('');
    expect(username).toHaveValue('ada');
    expect(console.info).toHaveBeenCalledWith(
      expect.stringContaining('Registration succeeded'),
      expect.objectContaining({ username: 'ada' }),
    );
    const logged = JSON.stringify([
      ...(console.info as unknown as { mock: { calls: unknown[] } }).mock.calls,
    ]);
    expect(logged).not.toContain('correct horse');
  });

  it('joins the inviting organisation with the token from an invite link', async () => {
    const fetchSpy = mockFetch(
      jsonResponse(
        { ...USER, organisation: { id: 'org-2', name: 'Riverside Clinic' }, role: 'viewer' },
        { status: 201 },
      ),
    );
    await renderRegisterPage('/register?invite=tok-123');
    expect(await screen.findByText(/You were invited to join an organisation/)).toBeVisible();
    await fillAndSubmit();
    expect(await screen.findByRole('status')).toHaveTextContent('in Riverside Clinic (viewer).');
    expect(requestBody(fetchSpy)).toMatchObject({ invite: 'tok-123' });
  });

  it('disables the button and shows a spinner while sending', async () => {
    let answer: (response: Response) => void = () => undefined;
    mockFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    await renderRegisterPage('/register');
    await fillAndSubmit();
    expect(screen.getByRole('button', { name: /Register/ })).toBeDisabled();
    expect(screen.getByRole('progressbar', { name: 'Creating your account…' })).toBeInTheDocument();
    answer(jsonResponse(USER, { status: 201 }));
    expect(await screen.findByRole('status')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Register' })).toBeEnabled();
  });

  it("shows the server's field messages under each field, and its message", async () => {
    mockFetch(
      errorResponse(400, 'Please correct the highlighted fields.', {
        error: 'Bad Request',
        fields: {
          username: 'This username is taken by a reserved word.',
          email: 'Use a real e-mail.',
        },
      }),
    );
    await renderRegisterPage('/register');
    const { username, email, password } = await fillAndSubmit();

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Please correct the highlighted fields.',
    );
    expect(username).toHaveAccessibleDescription('This username is taken by a reserved word.');
    expect(username).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Use a real e-mail.');
    expect(password).toHaveAttribute('aria-invalid', 'false');
    expect(password).toHaveValue('correct horse');
  });

  it("shows the server's message for an e-mail address already in use", async () => {
    mockFetch(
      errorResponse(409, 'An account with this e-mail address already exists.', {
        error: 'Conflict',
      }),
    );
    await renderRegisterPage('/register');
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'An account with this e-mail address already exists.',
    );
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('shows the message of other failures', async () => {
    mockFetch(new TypeError('Failed to fetch'));
    await renderRegisterPage('/register');
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch');
  });

  it('checks the fields before sending', async () => {
    const fetchSpy = mockFetch();
    await renderRegisterPage('/register');
    const { email, password } = await fillAndSubmit({
      username: 'ada',
      email: 'not-an-email',
      password: 'short',
    });
    expect(email).toHaveAccessibleDescription(
      'Enter a valid e-mail address, like name@example.com.',
    );
    expect(password).toHaveAccessibleDescription('Use a password of at least 8 characters.');
    expect(screen.getByRole('alert')).toHaveTextContent('Please check the highlighted fields.');
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('asks for every empty field', async () => {
    const fetchSpy = mockFetch();
    await renderRegisterPage('/register');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Register' }));
    const { username, email, password } = fields();
    await waitFor(() => expect(username).toHaveAttribute('aria-invalid', 'true'));
    expect(username).toHaveAccessibleDescription(/Enter a username/);
    expect(email).toHaveAccessibleDescription('Enter your e-mail address.');
    expect(password).toHaveAccessibleDescription('Enter a password.');
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
