export {
  PlatformClient,
  HOSTED_PLATFORM_BASE_URL,
  DEFAULT_TIMEOUT_MS,
  type PlatformClientOptions,
} from './platform-client.js';
export { PlatformError, PlatformTimeoutError, type HttpMethod } from './errors.js';
export type { FetchLike, RequestOptions, QueryParams } from './http.js';
export type { AssistantResource } from './resources/assistant.js';
export type { CallResource } from './resources/call.js';
export type { CredentialResource } from './resources/credential.js';
export type { PhoneNumberResource } from './resources/phone-number.js';
export type { MetricsResource } from './resources/metrics.js';
export type { AccessCodeResource, AccessCodeListQuery } from './resources/access-code.js';
// The wire types, so callers need not depend on the protocol package themselves.
export type {
  AccessCode,
  ApiError,
  Assistant,
  AssistantDto,
  AssistantPatch,
  BuyPhoneNumber,
  Call,
  CallListQuery,
  CreateAccessCode,
  CreateCredential,
  CreatePhoneCall,
  CreateWebCall,
  CreatedAccessCode,
  Credential,
  ImportTwilio,
  ImportVonage,
  ListQuery,
  Metrics,
  MetricsQuery,
  PhoneNumber,
  UpdatePhoneNumber,
} from '@talkbooth/protocol';
