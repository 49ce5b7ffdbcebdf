/**
 * `{{variable}}` templates in assistant messages (`firstMessage`, system prompts), filled
 * from the call's `variableValues`. A variable without a value is dropped and the sentence
 * tidied, so "Hello {{name}}, this is…" becomes "Hello, this is…": nothing with braces is
 * ever spoken. `{{name | default: 'there'}}` gives a fallback.
 */
export function fillTemplate(text: string, values: Readonly<Record<string, unknown>> = {}): string {
  const filled = text.replace(/\{\{([^{}]*)\}\}/g, (_match, expression: string) => {
    const [path = '', ...filters] = expression.split('|').map((s) => s.trim());
    const value = stringify(lookup(values, path));
    if (value !== '') return value;
    for (const filter of filters) {
      const m = /^default\s*:\s*(["'])(.*)\1$/.exec(filter);
      if (m) return m[2] ?? '';
    }
    return '';
  });
  return tidy(filled.replace(/\{\{|\}\}/g, ''));
}

function lookup(values: Readonly<Record<string, unknown>>, path: string): unknown {
  if (path === '') return undefined;
  if (Object.hasOwn(values, path)) return values[path];
  let current: unknown = values;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) {
      return undefined;
    }
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function stringify(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  // Objects, arrays, null: nothing sensible to say.
  return '';
}

/** Repairs the gaps a dropped variable leaves: " ," → ",", ", ." → ".", "()" → "". */
function tidy(text: string): string {
  let out = text
    .replace(/\(\s*\)|\[\s*\]|"\s*"/g, '')
    .replace(/[ \t]+([,.!?;:])/g, '$1')
    .replace(/([,;:])(?=[,.!?;:])/g, '')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
  const lead = /^[,;:.!?]+\s*/.exec(out);
  if (lead) {
    out = out.slice(lead[0].length);
    out = out.charAt(0).toUpperCase() + out.slice(1);
  }
  return out;
}

/** The assistant's `firstMessage` with variables filled, or null when it has none. */
export function greetingOf(
  firstMessage: string | undefined,
  values: Readonly<Record<string, unknown>> = {},
): string | null {
  if (firstMessage === undefined) return null;
  const text = fillTemplate(firstMessage, values);
  return text === '' ? null : text;
}
