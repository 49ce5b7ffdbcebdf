export * from './common.js';
export * from './assistant.js';
export * from './call.js';
export * from './credential.js';
export * from './phone-number.js';
export * from './metrics.js';
export * from './access-code.js';
