import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
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
};

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

describe('registration', () => {
  it('has required, labelled fields with placeholders, an email type and a masked password', () => {
    renderApp({ path: '/register' });
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
    renderApp({ path: '/register' });
    const user = userEvent.setup();
    const { password } = fields();
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
  });

  it('registers, names the user, clears the password and logs without the password', async () => {
    const fetchSpy = mockFetch(jsonResponse(USER, { status: 201 }));
    renderApp({ path: '/register' });
    const { password, username } = await fillAndSubmit();

    expect(await screen.findByRole('status')).toHaveTextContent(
      'Welcome, ada! Your account has been created.',
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

  it('disables the button and shows a spinner while sending', async () => {
    let answer: (response: Response) => void = () => undefined;
    mockFetch(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderApp({ path: '/register' });
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
    renderApp({ path: '/register' });
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
    renderApp({ path: '/register' });
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'An account with this e-mail address already exists.',
    );
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('shows the message of other failures', async () => {
    mockFetch(new TypeError('Failed to fetch'));
    renderApp({ path: '/register' });
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch');
  });

  it('checks the fields before sending', async () => {
    const fetchSpy = mockFetch();
    renderApp({ path: '/register' });
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
    renderApp({ path: '/register' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Register' }));
    const { username, email, password } = fields();
    await waitFor(() => expect(username).toHaveAttribute('aria-invalid', 'true'));
    expect(username).toHaveAccessibleDescription(/Enter a username/);
    expect(email).toHaveAccessibleDescription('Enter your e-mail address.');
    expect(password).toHaveAccessibleDescription('Enter a password.');
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
