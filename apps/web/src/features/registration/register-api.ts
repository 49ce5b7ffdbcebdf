import { registeredUserSchema } from '@talkbooth/protocol';
import type { RegisterRequest, RegisteredUser } from '@talkbooth/protocol';
import { requestJson } from '../../lib/api-client';

/** Creates an account with `POST /api/register`. */
export async function registerAccount(request: RegisterRequest): Promise<RegisteredUser> {
  const body = await requestJson('/api/register', { method: 'POST', body: request });
  return registeredUserSchema.parse(body);
}
