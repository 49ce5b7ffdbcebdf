export * from './audio/format.js';
