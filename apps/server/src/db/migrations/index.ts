import type { Migration } from 'kysely';
import { initial } from './0001-initial.js';
import { platform } from './0002-platform.js';
import { callLeases } from './0003-call-leases.js';
import { callRecordings } from './0004-call-recordings.js';
import { consoleAccounts } from './0005-console.js';

/**
 * Every migration, in order. Listed in code (not read from a folder) so the built server
 * carries them. Never edit a migration that has shipped: add the next one.
 */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-platform': platform,
  '0003-call-leases': callLeases,
  '0004-call-recordings': callRecordings,
  '0005-console': consoleAccounts,
};
