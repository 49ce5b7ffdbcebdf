import type { Redis } from 'ioredis';
import { hashToken, randomToken } from '../../security/tokens.js';
import { SESSION_TTL_MS, type SessionStore } from './session-store.js';

/**
 * Console sessions in Redis, shared by every API process: `<prefix>session:<hash>` holds
 * the account id and expires by itself; `<prefix>account-sessions:<id>` lists an
 * account's sessions so they can all be ended at once.
 */
export class RedisSessionStore implements SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private sessionKey(token: string): string {
    return `${this.prefix}session:${hashToken(token)}`;
  }

  private accountKey(userId: string): string {
    return `${this.prefix}account-sessions:${userId}`;
  }

  async create(userId: string, _now: Date): Promise<string> {
    const token = randomToken();
    const key = this.sessionKey(token);
    await this.redis
      .multi()
      .set(key, userId, 'PX', SESSION_TTL_MS)
      .sadd(this.accountKey(userId), key)
      .pexpire(this.accountKey(userId), SESSION_TTL_MS)
      .exec();
    return token;
  }

  async find(token: string, _now: Date): Promise<string | null> {
    return this.redis.get(this.sessionKey(token));
  }

  async delete(token: string): Promise<void> {
    await this.redis.del(this.sessionKey(token));
  }

  async deleteForUser(userId: string): Promise<void> {
    const keys = await this.redis.smembers(this.accountKey(userId));
    await this.redis.del(this.accountKey(userId), ...keys);
  }
}
