import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Account, Team } from '@talkbooth/protocol';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { errorResponse, jsonResponse } from '../../../test/render-app';
import { bodyOf, callsTo, headersOf, renderConsolePage, stubConsoleApi } from '../test-support';
import { TeamPage } from './TeamPage';

const OWNER: Account = {
  id: 'u-owner',
  username: 'Olga',
  email: 'olga@example.com',
  role: 'owner',
  organisation: { id: 'org-1', name: 'Riverside Clinic' },
};

const TEAM: Team = {
  members: [
    {
      id: 'u-owner',
      username: 'Olga',
      email: 'olga@example.com',
      role: 'owner',
      createdAt: '2025-01-01T09:00:00Z',
    },
    {
      id: 'u-nina',
      username: 'Nina',
      email: 'nina@example.com',
      role: 'viewer',
      createdAt: '2025-02-01T09:00:00Z',
    },
  ],
  invites: [
    {
      id: 'inv-1',
      role: 'admin',
      createdAt: '2025-03-01T09:00:00Z',
      expiresAt: '2025-03-08T09:00:00Z',
    },
  ],
};

const renderPage = (ui: ReactNode, account: Account = OWNER) => renderConsolePage(ui, account);
const stubApi = stubConsoleApi;

// Real typing and MUI transitions: slow when the whole suite runs side by side.
describe('the team page', { timeout: 20_000 }, () => {
  it('shows a viewer only that an owner runs the team, and asks the server nothing', () => {
    const spy = stubApi({});
    renderPage(<TeamPage />, { ...OWNER, role: 'viewer' });
    expect(screen.getByRole('heading', { level: 1, name: 'Team' })).toBeInTheDocument();
    expect(screen.getByText(/Only an owner of your organisation/)).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /invite/i })).not.toBeInTheDocument();
    expect(spy).not.toHaveBeenCalled();
  });

  it('lists members and open invites; changing a role sends a PATCH with the CSRF token', async () => {
    const spy = stubApi({
      'GET /console/api/team': () => jsonResponse(TEAM),
      'PATCH /console/api/team/members/u-nina': () =>
        jsonResponse({ ...TEAM.members[1], role: 'admin' }),
    });
    const user = userEvent.setup();
    renderPage(<TeamPage />);

    const members = await screen.findByRole('table', { name: 'Members' });
    expect(within(members).getByText('nina@example.com')).toBeInTheDocument();
    expect(within(members).getByText('(you)')).toBeInTheDocument();
    const invites = screen.getByRole('table', { name: 'Open invite links' });
    expect(within(invites).getByText('Admin')).toBeInTheDocument();

    const role = screen.getByRole('combobox', { name: 'Role of Nina' });
    expect(role).toHaveValue('viewer');
    await user.selectOptions(role, 'admin');

    expect(await screen.findByRole('status')).toHaveTextContent('Nina is now admin.');
    expect(role).toHaveValue('admin');
    const [patch] = callsTo(spy, 'PATCH', '/console/api/team/members/u-nina');
    expect(bodyOf(patch?.[1])).toEqual({ role: 'admin' });
    expect(headersOf(patch?.[1])['x-csrf-token']).toBe('csrf-token-1');
  });

  it("shows the server's refusal to remove the last owner, and keeps the role", async () => {
    const spy = stubApi({
      'GET /console/api/team': () =>
        jsonResponse({
          ...TEAM,
          members: [TEAM.members[0], { ...TEAM.members[1], role: 'owner' }],
        }),
      'PATCH /console/api/team/members/u-nina': () =>
        errorResponse(409, 'An organisation needs an owner: make someone else owner first.', {
          error: 'Conflict',
        }),
    });
    const user = userEvent.setup();
    renderPage(<TeamPage />);
    const role = await screen.findByRole('combobox', { name: 'Role of Nina' });
    await user.selectOptions(role, 'viewer');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'An organisation needs an owner: make someone else owner first.',
    );
    expect(role).toHaveValue('owner');
    expect(callsTo(spy, 'PATCH', '/console/api/team/members/u-nina')).toHaveLength(1);
  });

  it('asks before an owner gives up their own ownership', async () => {
    const spy = stubApi({ 'GET /console/api/team': () => jsonResponse(TEAM) });
    const user = userEvent.setup();
    renderPage(<TeamPage />);
    await user.selectOptions(
      await screen.findByRole('combobox', { name: 'Role of Olga' }),
      'admin',
    );
    const dialog = screen.getByRole('dialog', { name: 'Stop being an owner?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(callsTo(spy, 'PATCH', '/console/api/team/members/u-owner')).toHaveLength(0);
    expect(screen.getByRole('combobox', { name: 'Role of Olga' })).toHaveValue('owner');
  });

  it('resets a password only after confirming, then shows the one-time password once', async () => {
    const spy = stubApi({
      'GET /console/api/team': () => jsonResponse(TEAM),
      'POST /console/api/team/members/u-nina/reset-password': () =>
        jsonResponse({ temporaryPassword: 'Tmp7pass9Word4xy' }),
    });
    const user = userEvent.setup();
    renderPage(<TeamPage />);
    await user.click(await screen.findByRole('button', { name: 'Reset the password of Nina' }));

    const confirm = screen.getByRole('dialog', { name: 'Reset the password of Nina?' });
    expect(within(confirm).getByText(/signed out everywhere/)).toBeInTheDocument();
    expect(callsTo(spy, 'POST', '/console/api/team/members/u-nina/reset-password')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Reset password' }));

    const shown = await screen.findByRole('dialog', { name: 'One-time password for Nina' });
    const field = within(shown).getByRole('textbox', { name: 'One-time password' });
    expect(field).toHaveValue('Tmp7pass9Word4xy');
    expect(field).toHaveAttribute('readonly');
    expect(within(shown).getByText(/shown only once/)).toBeInTheDocument();
    await user.click(within(shown).getByRole('button', { name: 'Copy One-time password' }));
    expect(await navigator.clipboard.readText()).toBe('Tmp7pass9Word4xy');
    expect(within(shown).getByText('Copied to the clipboard.')).toBeInTheDocument();

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByDisplayValue('Tmp7pass9Word4xy')).not.toBeInTheDocument();
    const resets = callsTo(spy, 'POST', '/console/api/team/members/u-nina/reset-password');
    expect(resets).toHaveLength(1);
    expect(headersOf(resets[0]?.[1])['x-csrf-token']).toBe('csrf-token-1');
    // Never logged.
    const logged = JSON.stringify(
      [console.info, console.warn, console.error, console.debug].flatMap(
        (fn) => (fn as unknown as { mock: { calls: unknown[] } }).mock.calls,
      ),
    );
    expect(logged).not.toContain('Tmp7pass9Word4xy');
  });

  it('makes an invite link in the chosen role and shows it once', async () => {
    const spy = stubApi({
      'GET /console/api/team': () => jsonResponse(TEAM),
      'POST /console/api/team/invites': () =>
        jsonResponse(
          {
            id: 'inv-2',
            role: 'owner',
            createdAt: '2025-03-02T09:00:00Z',
            expiresAt: '2025-03-09T09:00:00Z',
            url: 'https://talkbooth.example/register?invite=secret-token-77',
          },
          { status: 201 },
        ),
    });
    const user = userEvent.setup();
    renderPage(<TeamPage />);
    await screen.findByRole('table', { name: 'Members' });
    const role = screen.getByRole('combobox', { name: 'Role for the new person' });
    expect(role).toHaveValue('viewer');
    await user.selectOptions(role, 'owner');
    await user.click(screen.getByRole('button', { name: 'Create invite link' }));

    const link = await screen.findByRole('textbox', { name: 'Invite link' });
    expect(link).toHaveValue('https://talkbooth.example/register?invite=secret-token-77');
    expect(screen.getByText(/shown only once/)).toHaveTextContent(/join as owner/);
    const [post] = callsTo(spy, 'POST', '/console/api/team/invites');
    expect(bodyOf(post?.[1])).toEqual({ role: 'owner' });
    await user.click(screen.getByRole('button', { name: 'Copy Invite link' }));
    expect(await navigator.clipboard.readText()).toBe(
      'https://talkbooth.example/register?invite=secret-token-77',
    );
    // The list is read again (the new invite shows there), and Done forgets the link.
    await waitFor(() => expect(callsTo(spy, 'GET', '/console/api/team')).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('textbox', { name: 'Invite link' })).not.toBeInTheDocument();
  });

  it('revokes an invite only after confirming', async () => {
    const spy = stubApi({
      'GET /console/api/team': () => jsonResponse(TEAM),
      'DELETE /console/api/team/invites/inv-1': () => new Response(null, { status: 204 }),
    });
    const user = userEvent.setup();
    renderPage(<TeamPage />);
    const revoke = await screen.findByRole('button', { name: /Revoke the admin invite/ });

    await user.click(revoke);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(callsTo(spy, 'DELETE', '/console/api/team/invites/inv-1')).toHaveLength(0);

    await user.click(revoke);
    await user.click(
      within(screen.getByRole('dialog', { name: 'Revoke this invite link?' })).getByRole('button', {
        name: 'Revoke link',
      }),
    );
    await waitFor(() =>
      expect(callsTo(spy, 'DELETE', '/console/api/team/invites/inv-1')).toHaveLength(1),
    );
    expect(
      headersOf(callsTo(spy, 'DELETE', '/console/api/team/invites/inv-1')[0]?.[1])['x-csrf-token'],
    ).toBe('csrf-token-1');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows why the team could not be loaded, with Retry', async () => {
    stubApi({ 'GET /console/api/team': () => errorResponse(500, 'The database is away.') });
    renderPage(<TeamPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not load the team. The database is away.',
    );
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
