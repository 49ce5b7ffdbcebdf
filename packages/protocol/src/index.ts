export * from './errors.js';
export * from './app-api.js';
