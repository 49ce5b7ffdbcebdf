export * from './errors.js';
export * from './app-api.js';
export * from './console.js';
export * from './platform/index.js';
export * from './web-call.js';
