import { describe, expect, it } from 'vitest';
import { createdInviteSchema, teamSchema } from '@talkbooth/protocol';
import { ConsoleBrowser } from '../../test-support/console-browser.js';
import { serversClosedAfterEachTest } from '../../test-support/test-server.js';

const start = serversClosedAfterEachTest();

async function withOwner() {
  const server = await start();
  const owner = new ConsoleBrowser(server.baseUrl);
  await owner.join({ username: 'Owner', email: 'owner@example.com', password: 'owner password' });
  return { server, owner };
}

async function invited(owner: ConsoleBrowser, role: 'admin' | 'viewer') {
  const answer = await owner.post('/console/api/team/invites', { role });
  expect(answer.status).toBe(201);
  const invite = createdInviteSchema.parse(answer.json);
  return new URL(invite.url).searchParams.get('invite')!;
}

describe('the team: invites, roles and password resets (real server, real database)', () => {
  it('an invite link joins the organisation once, in the invited role', async () => {
    const { server, owner } = await withOwner();
    const answer = await owner.post('/console/api/team/invites', { role: 'admin' });
    const invite = createdInviteSchema.parse(answer.json);
    expect(invite.url).toMatch(new RegExp(`^${server.baseUrl}/register\\?invite=`));
    const token = new URL(invite.url).searchParams.get('invite')!;
    expect(JSON.stringify(await server.db.all('select * from invites'))).not.toContain(token);

    const member = new ConsoleBrowser(server.baseUrl);
    const joined = await member.join({
      username: 'Nurse',
      email: 'nurse@example.com',
      password: 'nurse password',
      invite: token,
    });
    expect(joined.role).toBe('admin');
    const ownerAccount = (await owner.get('/console/api/account')).json as {
      organisation: { id: string };
    };
    expect(joined.organisation.id).toBe(ownerAccount.organisation.id);

    const again = await new ConsoleBrowser(server.baseUrl).register({
      username: 'Intruder',
      email: 'intruder@example.com',
      password: 'intruder password',
      invite: token,
    });
    expect(again.status).toBe(400);
    expect(again.json).toMatchObject({ fields: { invite: expect.stringMatching(/not valid/) } });
    // Refused outright: no account was made in another organisation instead.
    expect(
      await server.db.get("select id from users where email = 'intruder@example.com'"),
    ).toBeUndefined();

    const team = teamSchema.parse((await owner.get('/console/api/team')).json);
    expect(team.members.map((m) => [m.email, m.role])).toEqual([
      ['owner@example.com', 'owner'],
      ['nurse@example.com', 'admin'],
    ]);
    expect(team.invites).toEqual([]);
  });

  it('a revoked invite no longer works', async () => {
    const { server, owner } = await withOwner();
    const answer = await owner.post('/console/api/team/invites', { role: 'viewer' });
    const invite = createdInviteSchema.parse(answer.json);
    expect(teamSchema.parse((await owner.get('/console/api/team')).json).invites).toHaveLength(1);
    expect((await owner.request('DELETE', `/console/api/team/invites/${invite.id}`)).status).toBe(
      204,
    );
    const token = new URL(invite.url).searchParams.get('invite')!;
    const refused = await new ConsoleBrowser(server.baseUrl).register({
      username: 'Late',
      email: 'late@example.com',
      password: 'late password',
      invite: token,
    });
    expect(refused.status).toBe(400);
  });

  it('a viewer reads but cannot change; an admin changes all but the team and keys', async () => {
    const { server, owner } = await withOwner();
    const viewer = new ConsoleBrowser(server.baseUrl);
    await viewer.join({
      username: 'Viewer',
      email: 'viewer@example.com',
      password: 'viewer password',
      invite: await invited(owner, 'viewer'),
    });
    const admin = new ConsoleBrowser(server.baseUrl);
    await admin.join({
      username: 'Admin',
      email: 'admin@example.com',
      password: 'admin password',
      invite: await invited(owner, 'admin'),
    });

    const [assistant] = await viewer.platform().assistant.list();
    expect(assistant).toBeDefined();
    const edit = await viewer.request('PATCH', `/platform/assistant/${assistant!.id}`, {
      name: 'Viewer edit',
    });
    expect(edit.status).toBe(403);
    expect((edit.json as { message: string }).message).toMatch(/viewer.*only read/);
    const created = await viewer.request('POST', '/platform/access-code', {
      assistantId: assistant!.id,
    });
    expect(created.status).toBe(403);
    expect((await viewer.get('/console/api/team')).status).toBe(403);
    expect((await viewer.post('/console/api/keys', { kind: 'private', name: 'x' })).status).toBe(
      403,
    );

    const renamed = await admin.platform().assistant.update(assistant!.id, { name: 'Admin edit' });
    expect(renamed.name).toBe('Admin edit');
    expect(
      (await admin.platform().accessCode.create({ assistantId: assistant!.id })).code,
    ).toBeTruthy();
    expect((await admin.get('/console/api/team')).status).toBe(403);
    expect((await admin.get('/console/api/keys')).status).toBe(403);
    const promote = await admin.request('PATCH', '/console/api/team/members/x', { role: 'owner' });
    expect(promote.status).toBe(403);
  });

  it('an owner changes roles but never leaves the organisation without an owner', async () => {
    const { server, owner } = await withOwner();
    const member = new ConsoleBrowser(server.baseUrl);
    const joined = await member.join({
      username: 'Member',
      email: 'member@example.com',
      password: 'member password',
      invite: await invited(owner, 'viewer'),
    });
    const me = (await owner.get('/console/api/account')).json as { id: string };
    const demote = await owner.request('PATCH', `/console/api/team/members/${me.id}`, {
      role: 'admin',
    });
    expect(demote.status).toBe(409);
    const promoted = await owner.request('PATCH', `/console/api/team/members/${joined.id}`, {
      role: 'admin',
    });
    expect(promoted.status).toBe(200);
    expect(((await member.get('/console/api/account')).json as { role: string }).role).toBe(
      'admin',
    );
    const badRole = await owner.request('PATCH', `/console/api/team/members/${joined.id}`, {
      role: 'superuser',
    });
    expect(badRole.status).toBe(400);
  });

  it('an owner resets a member’s password: a one-time password works and old sessions end', async () => {
    const { server, owner } = await withOwner();
    const member = new ConsoleBrowser(server.baseUrl);
    const joined = await member.join({
      username: 'Forgetful',
      email: 'forgetful@example.com',
      password: 'forgotten password',
      invite: await invited(owner, 'admin'),
    });
    const reset = await owner.post(`/console/api/team/members/${joined.id}/reset-password`);
    expect(reset.status).toBe(200);
    const { temporaryPassword } = reset.json as { temporaryPassword: string };
    expect(temporaryPassword).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(server.logs.join('')).not.toContain(temporaryPassword);
    expect((await member.get('/console/api/account')).status).toBe(401);
    const fresh = new ConsoleBrowser(server.baseUrl);
    expect(
      (
        await fresh.post('/console/api/sign-in', {
          email: 'forgetful@example.com',
          password: 'forgotten password',
        })
      ).status,
    ).toBe(401);
    await fresh.signIn('forgetful@example.com', temporaryPassword);
    expect((await owner.post('/console/api/team/members/nobody/reset-password')).status).toBe(404);
  });
});
