import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedbackReceiptSchema } from '@talkbooth/protocol';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

interface FeedbackRow {
  product: string;
  call_id: string | null;
  assistant_id: string | null;
  rating: number | null;
  message: string;
}
const stored = (id: string) =>
  server.db.get<FeedbackRow>(
    'select product, call_id, assistant_id, rating, message from feedback where id = ?',
    id,
  );

describe('POST /api/feedback (real server, real database)', () => {
  it('stores the feedback with the call id, the assistant and the rating', async () => {
    const [demo] = await server.client().assistant.list();
    const call = await server.client().call.createWeb({ assistantId: demo!.id });
    const response = await server.post('/api/feedback', {
      message: '  Clear and friendly.  ',
      rating: 5,
      callId: call.id,
    });
    expect(response.status).toBe(201);
    const receipt = feedbackReceiptSchema.parse(response.json);
    // The assistant is taken from the call when the browser does not say it.
    expect(await stored(receipt.id)).toEqual({
      product: 'medibrief',
      call_id: call.id,
      assistant_id: demo!.id,
      rating: 5,
      message: 'Clear and friendly.',
    });
  });

  it('refuses feedback about a call that does not exist, naming the field, and stores nothing', async () => {
    const count = () => server.db.count('feedback');
    const before = await count();
    const response = await server.post('/api/feedback', { rating: 4, callId: 'no-such-call' });
    expect(response.status).toBe(400);
    const message =
      'There is no call with id no-such-call. Send the id of the call the feedback is about, or leave callId out.';
    expect(response.json).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message,
      fields: { callId: message },
    });
    expect(await count()).toBe(before);
  });

  it('accepts text without a call id or rating, and a rating without text', async () => {
    const textOnly = await server.post('/api/feedback', { message: 'Nice' });
    expect(textOnly.status).toBe(201);
    expect(await stored(feedbackReceiptSchema.parse(textOnly.json).id)).toMatchObject({
      call_id: null,
      rating: null,
      message: 'Nice',
    });

    const ratingOnly = await server.post('/api/feedback', { rating: 3, callId: null });
    expect(ratingOnly.status).toBe(201);
    expect(await stored(feedbackReceiptSchema.parse(ratingOnly.json).id)).toMatchObject({
      rating: 3,
      message: '',
    });
  });

  it.each([0, 6, 2.5, '4'])('rejects the rating %j with 400', async (rating) => {
    const response = await server.post('/api/feedback', { message: 'ok', rating });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({
      fields: { rating: 'The rating must be a whole number from 1 to 5.' },
    });
  });

  it('rejects empty feedback with a message a person can act on, and stores nothing', async () => {
    const before = await server.db.count('feedback');
    const response = await server.post('/api/feedback', { message: '   ' });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({
      message: 'Write a few words of feedback or give a rating.',
    });
    const after = await server.db.count('feedback');
    expect(after).toBe(before);
  });
});
