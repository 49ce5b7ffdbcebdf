import type { Redis } from 'ioredis';

// Atomic: forget the address's places that lapsed, refuse when it has its maximum, else
// hold one for the call until `holdUntil`, and remember the call's address for the relay.
const TAKE = `
local now = tonumber(ARGV[1])
local holdUntil = tonumber(ARGV[2])
local max = tonumber(ARGV[3])
local callId = ARGV[4]
local address = ARGV[5]
local ttlMs = tonumber(ARGV[6])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. now)
if redis.call('ZCARD', KEYS[1]) >= max then return 0 end
redis.call('ZADD', KEYS[1], holdUntil, callId)
redis.call('PEXPIRE', KEYS[1], ttlMs)
redis.call('SET', KEYS[2], address, 'PX', ttlMs)
return 1
`;

/** How long a connected call's place lasts unrenewed: a relay renews it every third of this. */
export const ADDRESS_PLACE_LEASE_MS = 30_000;
/** How long a call's address is remembered (its link lives 60 s; a call may last 12 h). */
const CALL_ADDRESS_TTL_MS = 13 * 60 * 60 * 1000;

/**
 * The per-address cap on live calls (MAX_LIVE_CALLS_PER_ADDRESS) for a split deployment,
 * in Redis, so that it holds across API processes: a call takes its place where it is
 * created, and the API process relaying its socket (any one) keeps the place while the
 * call lasts, renewing it, and gives it back when the socket closes. A relay that dies
 * stops renewing, and the place lapses within {@link ADDRESS_PLACE_LEASE_MS}.
 */
export class AddressPlaces {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly maxPerAddress: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!('takeAddressPlace' in redis)) {
      redis.defineCommand('takeAddressPlace', { numberOfKeys: 2, lua: TAKE });
    }
  }

  private addressKey(address: string): string {
    return `${this.prefix}address:${address}:calls`;
  }

  private callKey(callId: string): string {
    return `${this.prefix}call:${callId}:address`;
  }

  /** Holds a place for `callId` from `address` for `holdMs`; false when the address has its maximum. */
  async take(callId: string, address: string, holdMs: number): Promise<boolean> {
    const now = this.now();
    const take = (
      this.redis as unknown as {
        // Defined above with defineCommand; ioredis adds it to the client at run time.
        takeAddressPlace(a: string, b: string, ...args: (string | number)[]): Promise<number>;
      }
    ).takeAddressPlace;
    const taken = await take.call(
      this.redis,
      this.addressKey(address),
      this.callKey(callId),
      now,
      now + holdMs,
      this.maxPerAddress,
      callId,
      address,
      CALL_ADDRESS_TTL_MS,
    );
    return taken === 1;
  }

  /**
   * The call is live: its place (if it was counted per address) lasts another lease. The
   * relaying process calls this when the caller connects, then every third of a lease.
   */
  async hold(callId: string): Promise<void> {
    const address = await this.redis.get(this.callKey(callId));
    if (address === null) return;
    await this.redis.zadd(
      this.addressKey(address),
      'XX',
      this.now() + ADDRESS_PLACE_LEASE_MS,
      callId,
    );
  }

  /** Gives the call's place back (the call ended, or creating it failed). */
  async release(callId: string): Promise<void> {
    const address = await this.redis.get(this.callKey(callId));
    if (address === null) return;
    await this.redis.zrem(this.addressKey(address), callId);
    await this.redis.del(this.callKey(callId));
  }
}
