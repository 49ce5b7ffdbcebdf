import { openDatabase } from '../db/open-database.js';
import { AssistantRepository } from '../db/repositories/assistants.js';
import { CredentialRepository } from '../db/repositories/credentials.js';
import { PhoneNumberRepository } from '../db/repositories/phone-numbers.js';
import { loadMasterKey } from '../security/master-key.js';
import { SecretBox } from '../security/secret-box.js';
import type { TestServer } from './test-server.js';

/**
 * The repositories over a test server's database, opened with its key file: to check
 * what the server stored (secrets decrypt to what was sent) without going through the API.
 */
export async function withRepositories<T>(
  server: TestServer,
  use: (repositories: {
    assistants: AssistantRepository;
    credentials: CredentialRepository;
    phoneNumbers: PhoneNumberRepository;
  }) => Promise<T>,
): Promise<T> {
  const db = openDatabase(server.db.url);
  const box = new SecretBox(loadMasterKey(undefined, server.dataDir));
  try {
    return await use({
      assistants: new AssistantRepository(db, box),
      credentials: new CredentialRepository(db, box),
      phoneNumbers: new PhoneNumberRepository(db, box),
    });
  } finally {
    await db.destroy();
  }
}
