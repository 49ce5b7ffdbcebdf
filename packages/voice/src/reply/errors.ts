/** Why a hosted reply provider failed. */
export type ReplyProviderErrorKind =
  /** The provider refused the key (HTTP 401 or 403). */
  | 'auth'
  /** Any other HTTP error status. */
  | 'http'
  /** No first token (or no more tokens) in time. */
  | 'timeout'
  /** The response was not the chat-completions stream it should be. */
  | 'malformed'
  /** The provider reported an error inside the stream. */
  | 'provider'
  /** The provider could not be reached. */
  | 'network';

/**
 * A hosted reply provider failed. The session catches it and carries on with the local
 * engine; `message` says what went wrong in words fit for the call log.
 */
export class ReplyProviderError extends Error {
  override readonly name = 'ReplyProviderError';
  readonly provider: string;
  readonly kind: ReplyProviderErrorKind;
  /** The HTTP status, for `auth` and `http`. */
  readonly status: number | undefined;

  constructor(
    provider: string,
    kind: ReplyProviderErrorKind,
    message: string,
    options: { status?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.provider = provider;
    this.kind = kind;
    this.status = options.status;
  }
}
