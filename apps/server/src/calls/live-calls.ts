import type { CallControl, ClientMessage } from '@talkbooth/protocol';
import type { EndedReason } from '@talkbooth/voice';

/** A call in progress, as the server sees it at shutdown. */
export interface LiveCall {
  /** Ends the call now, telling the client why. */
  end(reason: EndedReason): Promise<void>;
  /** Resolves once everything the call wrote to its record is stored. */
  settled(): Promise<void>;
  /** A control message from elsewhere (the platform API), as the call's client could send it. */
  control(message: ClientMessage): void;
}

/** The calls this process is serving, so a shutdown can end each one properly. */
export class LiveCalls {
  private readonly calls = new Map<string, LiveCall>();

  add(id: string, call: LiveCall): void {
    this.calls.set(id, call);
  }

  remove(id: string): void {
    this.calls.delete(id);
  }

  /**
   * Applies a live-call control from the platform API to a call this process runs; false
   * when it runs no such call. `end-call` ends it as `manually-canceled`.
   */
  control(id: string, control: CallControl): boolean {
    const call = this.calls.get(id);
    if (call === undefined) return false;
    switch (control.type) {
      case 'end-call':
        void call.end('manually-canceled');
        break;
      case 'say':
        call.control({
          type: 'say',
          message: control.content,
          ...(control.endCallAfterSpoken === undefined
            ? {}
            : { endCallAfterSpoken: control.endCallAfterSpoken }),
        });
        break;
      default:
        call.control(control);
    }
    return true;
  }

  get size(): number {
    return this.calls.size;
  }

  /** Ends every live call with `reason` and waits until their records are written. */
  async endAll(reason: EndedReason): Promise<void> {
    const calls = [...this.calls.values()];
    await Promise.all(calls.map((call) => call.end(reason)));
    await Promise.all(calls.map((call) => call.settled()));
  }
}
