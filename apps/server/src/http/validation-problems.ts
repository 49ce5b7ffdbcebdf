import { HttpProblem } from './problems.js';

export interface IssueLike {
  /** Path segments (`['model', 'temperature']`) or a JSON pointer (`/model/temperature`). */
  path: readonly PropertyKey[] | string;
  message: string | undefined;
}

/** One message per field, keyed by dotted path (`body` for the whole body); the first issue wins. */
export function fieldsFromIssues(issues: readonly IssueLike[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const segments =
      typeof issue.path === 'string'
        ? issue.path.split('/').filter((s) => s !== '')
        : issue.path.map(String);
    const field = segments.length === 0 ? 'body' : segments.join('.');
    fields[field] ??= issue.message ?? 'is not valid';
  }
  return fields;
}

/** The 400 answer for failed validation: every problem listed, per field. */
export function validationProblem(issues: readonly IssueLike[]): HttpProblem {
  const fields = fieldsFromIssues(issues);
  const entries = Object.entries(fields);
  const message =
    entries.length === 1
      ? (entries[0]?.[1] ?? '')
      : `Please correct these fields: ${entries.map(([field, text]) => `${field}: ${text}`).join(' ')}`;
  return new HttpProblem(400, message, fields);
}
