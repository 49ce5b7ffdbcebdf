import type { FastifyRequest } from 'fastify';
import { HttpProblem } from './problems.js';

/** Deeper than any real assistant or metadata; shallow enough for every recursive step after. */
export const MAX_BODY_DEPTH = 64;

/** How deeply a parsed JSON value nests, counted without recursion, stopping past `limit`. */
export function nestingDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    const level = depth + 1;
    if (level > deepest) deepest = level;
    if (deepest > limit) return deepest;
    for (const child of Object.values(current)) stack.push([child, level]);
  }
  return deepest;
}

/**
 * Refuses bodies nested more than MAX_BODY_DEPTH levels before any handler walks them:
 * copying or validating a body a few thousand levels deep would exhaust the stack.
 */
export async function limitBodyDepth(request: FastifyRequest): Promise<void> {
  if (nestingDepth(request.body, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) {
    throw new HttpProblem(
      400,
      `The request body is nested more than ${MAX_BODY_DEPTH} levels deep. Flatten it.`,
    );
  }
}
