import Button from '@mui/material/Button';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Link as RouterLink, Router, useLocation, useSearch } from 'wouter';
import type { BaseLocationHook } from 'wouter';
import { memoryRouter } from '../test/memory-router';
import { isConsolePath, navigateInBrowser, useVisitorBrowserLocation } from './navigation';

function Where() {
  const [pathname] = useLocation();
  const search = useSearch();
  return <p data-testid="where">{`${pathname}${search ? `?${search}` : ''}`}</p>;
}

function renderWith(hook: BaseLocationHook, link: ReactNode) {
  return render(
    <Router hook={hook}>
      {link}
      <Where />
    </Router>,
  );
}

const registerLink = <RouterLink to="/register?invite=x">Register</RouterLink>;

afterEach(() => {
  window.history.replaceState(null, '', '/');
});

describe('visitor navigation', () => {
  it('follows a link in the page and says how the address was reached', async () => {
    const navigation = memoryRouter('/');
    renderWith(navigation.hook, registerLink);
    const link = screen.getByRole('link', { name: 'Register' });
    expect(link).toHaveAttribute('href', '/register?invite=x');
    await userEvent.setup().click(link);
    expect(screen.getByTestId('where')).toHaveTextContent('/register?invite=x');
    expect(navigation.state.historyAction).toBe('PUSH');
    act(() => navigation.navigate('/call-section', { replace: true }));
    expect(await screen.findByText('/call-section')).toBeInTheDocument();
    expect(navigation.state.historyAction).toBe('REPLACE');
  });

  it('follows MUI components rendered as links', async () => {
    const navigation = memoryRouter('/register');
    renderWith(
      navigation.hook,
      <Button component={RouterLink} to="/">
        Enter a UniCode
      </Button>,
    );
    const link = screen.getByRole('link', { name: 'Enter a UniCode' });
    expect(link).toHaveAttribute('href', '/');
    await userEvent.setup().click(link);
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/);
    expect(navigation.state.historyAction).toBe('PUSH');
  });

  it('leaves modified clicks (new tab, new window) to the browser', async () => {
    const navigation = memoryRouter('/');
    renderWith(navigation.hook, registerLink);
    const user = userEvent.setup();
    await user.keyboard('{Control>}');
    await user.click(screen.getByRole('link', { name: 'Register' }));
    await user.keyboard('{/Control}');
    expect(navigation.state.location.pathname).toBe('/');
  });

  it('keeps the browser address and history in step, Back included', async () => {
    window.history.replaceState(null, '', '/first');
    renderWith(useVisitorBrowserLocation, registerLink);
    expect(screen.getByTestId('where')).toHaveTextContent('/first');

    const entries = window.history.length;
    act(() => navigateInBrowser('/second?unicode=a'));
    expect(window.location.pathname).toBe('/second');
    expect(window.history.length).toBe(entries + 1);
    expect(screen.getByTestId('where')).toHaveTextContent('/second?unicode=a');

    act(() => navigateInBrowser('/third', { replace: true }));
    expect(window.history.length).toBe(entries + 1);
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/third$/);

    act(() => window.history.back());
    expect(await screen.findByText('/first')).toBeInTheDocument();
    expect(window.location.pathname).toBe('/first');
  });

  it('loads the console, another app, and other sites as a new page', () => {
    const assign = vi.fn();
    const replace = vi.fn();
    const pushState = vi.spyOn(window.history, 'pushState');
    const win = {
      location: { assign, replace, href: 'http://localhost/', origin: 'http://localhost' },
    } as unknown as Window;
    navigateInBrowser('/console/login', {}, win);
    expect(assign).toHaveBeenCalledWith('http://localhost/console/login');
    navigateInBrowser('/Console', { replace: true }, win);
    expect(replace).toHaveBeenCalledWith('http://localhost/Console');
    navigateInBrowser('https://riverside.example/visit', {}, win);
    expect(assign).toHaveBeenLastCalledWith('https://riverside.example/visit');
    expect(pushState).not.toHaveBeenCalled();
  });

  it('knows the console’s paths', () => {
    expect(isConsolePath('/console')).toBe(true);
    expect(isConsolePath('/console/calls/1')).toBe(true);
    expect(isConsolePath('/Console/login')).toBe(true);
    expect(isConsolePath('/consoles')).toBe(false);
    expect(isConsolePath('/')).toBe(false);
  });
});
