import { feedbackReceiptSchema } from '@talkbooth/protocol';
import type { FeedbackReceipt, FeedbackRequest } from '@talkbooth/protocol';
import { requestJson } from '../../lib/api-client';

/** Stores feedback with `POST /api/feedback`. */
export async function submitFeedback(request: FeedbackRequest): Promise<FeedbackReceipt> {
  const body = await requestJson('/api/feedback', { method: 'POST', body: request });
  return feedbackReceiptSchema.parse(body);
}
