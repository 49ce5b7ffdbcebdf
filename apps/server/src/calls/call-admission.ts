/**
 * How many calls this server takes at once. Each live call holds a pair of speech decoders
 * (~80–100 MB) and ~5 % of a core, and the benchmarks show where that runs out: past the
 * cap, a new call would make every call worse. A call holds its place from `POST
 * /call/web` (its caller is about to connect) until it ends, or until its link expires
 * unused. Places are also capped per client address, so one network cannot take every
 * line; private-key calls (the operator's own servers) and exempt addresses are not
 * counted per address.
 */

export interface CallAdmissionLimits {
  /** Calls at once, in all (MAX_LIVE_CALLS). */
  maxCalls: number;
  /** Calls at once from one client address (MAX_LIVE_CALLS_PER_ADDRESS). */
  maxPerAddress: number;
}

export type AdmissionRefusal =
  { problem: 'full'; limit: number } | { problem: 'address'; limit: number };

interface Place {
  address: string | null;
  timer: ReturnType<typeof setTimeout> | null;
}

export class CallAdmission {
  private readonly places = new Map<string, Place>();
  private readonly perAddress = new Map<string, number>();

  constructor(readonly limits: CallAdmissionLimits) {}

  /** Calls holding a place (connected, or about to connect). */
  get count(): number {
    return this.places.size;
  }

  get full(): boolean {
    return this.places.size >= this.limits.maxCalls;
  }

  /**
   * Takes a place for call `id`. `address` is the client address to count it against, or
   * null when it is not counted per address. The place is given back after `holdMs`
   * unless `connected(id)` is called first (a link that was never opened); with `holdMs`
   * null it is held until `release(id)`.
   */
  admit(id: string, address: string | null, holdMs: number | null): AdmissionRefusal | null {
    if (this.places.size >= this.limits.maxCalls)
      return { problem: 'full', limit: this.limits.maxCalls };
    if (address !== null && (this.perAddress.get(address) ?? 0) >= this.limits.maxPerAddress)
      return { problem: 'address', limit: this.limits.maxPerAddress };
    const timer = holdMs === null ? null : setTimeout(() => this.release(id), holdMs);
    timer?.unref();
    this.places.set(id, { address, timer });
    if (address !== null) this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    return null;
  }

  /** The caller connected: the place is held until `release(id)`. False when it has none. */
  connected(id: string): boolean {
    const place = this.places.get(id);
    if (place === undefined) return false;
    if (place.timer !== null) clearTimeout(place.timer);
    place.timer = null;
    return true;
  }

  /** Gives the place back (the call ended, or was refused). Idempotent. */
  release(id: string): void {
    const place = this.places.get(id);
    if (place === undefined) return;
    if (place.timer !== null) clearTimeout(place.timer);
    this.places.delete(id);
    if (place.address === null) return;
    const left = (this.perAddress.get(place.address) ?? 1) - 1;
    if (left <= 0) this.perAddress.delete(place.address);
    else this.perAddress.set(place.address, left);
  }
}

/** The 429 message for a refused call, for a person reading it in the booth. */
export function admissionMessage(refusal: AdmissionRefusal): string {
  return refusal.problem === 'full'
    ? `All lines are busy (this server takes ${refusal.limit === 1 ? 'one call' : `${refusal.limit} calls`} at a time). Please try again in a minute.`
    : refusal.limit === 1
      ? 'Your network already has a call open, the most allowed at once. End it, or try again in a minute.'
      : `Your network already has ${refusal.limit} calls open, the most allowed at once. End one of them, or try again in a minute.`;
}
