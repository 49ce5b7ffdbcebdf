// Where things are: the repository and its built parts.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const fromRoot = (...parts) => path.join(root, ...parts);
/** Imports a built module of the repository (run `npm run build` first; `npm run bench` does). */
export const importBuilt = (relative) => import(fromRoot(relative));
