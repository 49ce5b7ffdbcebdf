import type { AssistantDto } from '@talkbooth/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { failure } from '../../test-support/platform-failure.js';
import { withRepositories } from '../../test-support/stored-repositories.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const definition: AssistantDto = {
  name: 'Night desk',
  firstMessage: 'Hello {{name}}, the night desk here.',
  transcriber: { provider: 'deepgram', model: 'nova-2', language: 'en-US', keywords: ['clinic:2'] },
  model: {
    provider: 'local',
    model: 'knowledge-base',
    temperature: 0.3,
    messages: [{ role: 'system', content: 'Be brief.' }],
    knowledge: [{ id: 'hours', questions: ['When are you open?'], answer: 'Always.' }],
  },
  voice: { provider: 'espeak', voiceId: 'en-us' },
  silenceTimeoutSeconds: 30,
  endCallPhrases: ['goodbye'],
  metadata: { team: 'nights' },
};

describe('assistants through the typed client (real server, real SQLite file)', () => {
  it('goes through its whole life: create, get, list, update, replace, delete', async () => {
    const client = server.client();
    const created = await client.assistant.create(definition);
    expect(created).toMatchObject({
      ...definition,
      id: expect.any(String),
      orgId: expect.any(String),
    });
    expect(created.createdAt).toBe(created.updatedAt);

    expect(await client.assistant.get(created.id)).toEqual(created);
    expect((await client.assistant.list()).map((a) => a.id)).toContain(created.id);

    const updated = await client.assistant.update(created.id, { name: 'Night desk 2' });
    expect(updated.name).toBe('Night desk 2');
    expect(updated.updatedAt >= created.updatedAt).toBe(true);

    const replaced = await client.assistant.replace(created.id, { name: 'Bare' });
    expect(replaced).toEqual({
      name: 'Bare',
      id: created.id,
      orgId: created.orgId,
      createdAt: created.createdAt,
      updatedAt: replaced.updatedAt,
    });

    const deleted = await client.assistant.delete(created.id);
    expect(deleted.id).toBe(created.id);
    expect((await failure(client.assistant.get(created.id))).status).toBe(404);
    expect((await failure(client.assistant.delete(created.id))).status).toBe(404);
  });

  it('PATCH merges nested fields and removes nulls; PUT replaces the whole definition', async () => {
    const client = server.client();
    const created = await client.assistant.create(definition);

    const patched = await client.assistant.update(created.id, {
      model: { temperature: 0.9, knowledge: null },
      voice: null,
      metadata: { shift: 'late' },
    });
    expect(patched.model).toEqual({
      provider: 'local',
      model: 'knowledge-base',
      temperature: 0.9,
      messages: [{ role: 'system', content: 'Be brief.' }],
    });
    expect(patched).not.toHaveProperty('voice');
    expect(patched.metadata).toEqual({ team: 'nights', shift: 'late' });
    expect(patched.transcriber).toEqual(definition.transcriber);

    const replaced = await client.assistant.replace(created.id, {
      name: 'Only a name',
      firstMessage: 'Hi',
    });
    expect(replaced).not.toHaveProperty('model');
    expect(replaced).not.toHaveProperty('transcriber');
    expect(replaced.firstMessage).toBe('Hi');
  });

  it('keeps fields it does not know, at every depth, through create, PATCH and PUT', async () => {
    const client = server.client();
    const created = await client.assistant.create({
      ...definition,
      backgroundSound: 'office',
      analysisPlan: { summaryPrompt: 'Summarise.', structuredDataSchema: { type: 'object' } },
      voice: { provider: 'espeak', voiceId: 'en-us', stability: 0.4 },
    } as AssistantDto);
    expect(created).toMatchObject({
      backgroundSound: 'office',
      analysisPlan: { summaryPrompt: 'Summarise.' },
    });
    expect(created.voice).toEqual({ provider: 'espeak', voiceId: 'en-us', stability: 0.4 });

    const patched = await client.assistant.update(created.id, {
      analysisPlan: { successEvaluationRubric: 'PassFail' },
    } as never);
    expect(patched).toMatchObject({
      backgroundSound: 'office',
      analysisPlan: {
        summaryPrompt: 'Summarise.',
        successEvaluationRubric: 'PassFail',
        structuredDataSchema: { type: 'object' },
      },
    });
    const fetched = await client.assistant.get(created.id);
    expect(fetched).toEqual(patched);
  });

  it('lists newest first, with limit and time filters', async () => {
    const client = server.client();
    const made = [];
    for (const name of ['first', 'second', 'third']) {
      made.push(await client.assistant.create({ name }));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const [first, second, third] = made;
    const newest = await client.assistant.list({ limit: 2 });
    expect(newest.map((a) => a.name)).toEqual(['third', 'second']);

    const window = await client.assistant.list({
      createdAtGe: second!.createdAt,
      createdAtLt: third!.createdAt,
    });
    expect(window.map((a) => a.name)).toEqual(['second']);
    const after = await client.assistant.list({ createdAtGt: first!.createdAt });
    expect(after.map((a) => a.name)).toEqual(['third', 'second']);
    const upTo = await client.assistant.list({ createdAtLe: first!.createdAt, limit: 1000 });
    expect(upTo.map((a) => a.name)).toContain('first');
    expect(upTo.map((a) => a.name)).not.toContain('second');

    await client.assistant.update(first!.id, { firstMessage: 'touched' });
    const touched = await client.assistant.list({ updatedAtGt: third!.updatedAt });
    expect(touched.map((a) => a.name)).toEqual(['first']);
  });

  it('rejects bad list queries with 400', async () => {
    const client = server.client();
    for (const query of [{ limit: 0 }, { limit: 1001 }, { createdAtGt: 'yesterday' }]) {
      const error = await failure(client.assistant.list(query as never));
      expect(error.status, JSON.stringify(query)).toBe(400);
    }
    const big = await failure(client.assistant.list({ limit: 5000 }));
    expect(big.apiError?.fields).toEqual({ limit: 'limit must be at most 1000.' });
  });

  it('answers 400 listing every validation problem, and stores nothing', async () => {
    const client = server.client();
    const before = (await client.assistant.list({ limit: 1000 })).length;
    const error = await failure(
      client.assistant.create({
        transcriber: { provider: 'whisper-cloud' },
        model: { provider: 'local', model: 'kb', temperature: 7 },
        silenceTimeoutSeconds: 2,
        serverUrl: 'not a url',
      } as never),
    );
    expect(error.status).toBe(400);
    expect(error.apiError?.fields).toEqual({
      'transcriber.provider': expect.stringMatching(
        /^Use one of the transcriber providers: deepgram, .*pocketsphinx\.$/,
      ),
      'model.temperature': expect.any(String),
      silenceTimeoutSeconds: 'Use 10 to 3600 seconds.',
      serverUrl: 'serverUrl must be an http(s) URL.',
    });
    expect(error.apiError?.message).toMatch(/^Please correct these fields: /);
    expect((await client.assistant.list({ limit: 1000 })).length).toBe(before);
  });

  it('rejects a PATCH whose result would be invalid, and keeps the stored assistant', async () => {
    const client = server.client();
    const created = await client.assistant.create(definition);
    const error = await failure(
      client.assistant.update(created.id, { voice: { provider: 'espeak', voiceId: '' } }),
    );
    expect(error.status).toBe(400);
    expect(error.apiError?.fields).toEqual({
      'voice.voiceId': 'Name the voice, like en-us or burt.',
    });
    expect(await client.assistant.get(created.id)).toEqual(created);
  });

  it('answers 404 for unknown ids on every verb', async () => {
    const client = server.client();
    for (const attempt of [
      () => client.assistant.get('no-such-id'),
      () => client.assistant.update('no-such-id', { name: 'x' }),
      () => client.assistant.replace('no-such-id', { name: 'x' }),
      () => client.assistant.delete('no-such-id'),
    ]) {
      const error = await failure(attempt());
      expect(error.status).toBe(404);
      expect(error.apiError?.message).toBe(
        'There is no assistant with id no-such-id in your organisation.',
      );
    }
  });

  it('keeps serverUrlSecret write-only: sealed at rest, masked in answers, kept when sent back masked', async () => {
    const client = server.client();
    const secret = 'whsec_assistant_9f8e7d6c5b4a';
    const created = await client.assistant.create({
      name: 'Hooked',
      serverUrl: 'https://hooks.example/call',
      serverUrlSecret: secret,
    });
    expect(created.serverUrlSecret).toBe('••••5b4a');
    expect(JSON.stringify(await client.assistant.list({ limit: 1000 }))).not.toContain(secret);
    expect(await server.db.storedText()).not.toContain(secret);

    // A client that reads the assistant and sends it back keeps the secret.
    const fetched = await client.assistant.get(created.id);
    await client.assistant.replace(created.id, {
      ...fetched,
      name: 'Hooked again',
    } as AssistantDto);
    await client.assistant.update(created.id, { serverUrlSecret: fetched.serverUrlSecret ?? null });
    const stored = await withRepositories(server, ({ assistants }) =>
      assistants.get(created.orgId, created.id),
    );
    expect(stored?.body.serverUrlSecret).toBe(secret);
    expect(stored?.body.name).toBe('Hooked again');

    await client.assistant.update(created.id, { serverUrlSecret: null });
    expect(await client.assistant.get(created.id)).not.toHaveProperty('serverUrlSecret');
  });
});
