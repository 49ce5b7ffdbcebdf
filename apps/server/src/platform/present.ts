import type { Assistant, Call, Credential, PhoneNumber } from '@talkbooth/protocol';
import { ASSISTANT_SECRET_PATHS, type StoredAssistant } from '../db/repositories/assistants.js';
import { CALL_SECRET_PATHS } from '../db/repositories/calls.js';
import { credentialSecretPaths, type StoredCredential } from '../db/repositories/credentials.js';
import { PHONE_NUMBER_SECRET_PATHS } from '../db/repositories/phone-numbers.js';
import { maskSecrets } from '../security/secret-fields.js';

/** Resources as the API answers them: the server's fields set, secrets masked. */

export function presentAssistant(stored: StoredAssistant): Assistant {
  return {
    ...maskSecrets(stored.body, ASSISTANT_SECRET_PATHS),
    id: stored.id,
    orgId: stored.orgId,
    createdAt: stored.createdAt,
    updatedAt: stored.updatedAt,
  };
}

export function presentCall(call: Call): Call {
  return maskSecrets(call, CALL_SECRET_PATHS);
}

export function presentCredential(stored: StoredCredential): Credential {
  return {
    ...maskSecrets(stored.body, credentialSecretPaths(stored.body.provider)),
    id: stored.id,
    orgId: stored.orgId,
    createdAt: stored.createdAt,
    updatedAt: stored.updatedAt,
  };
}

export function presentPhoneNumber(phoneNumber: PhoneNumber): PhoneNumber {
  return maskSecrets(phoneNumber, PHONE_NUMBER_SECRET_PATHS);
}
