import type { AssistantDto } from '@talkbooth/protocol';

/**
 * The assistant a call runs: the stored (or inline) definition with the call's
 * `assistantOverrides` merged in, key by key for objects (so an override of
 * `transcriber.provider` keeps the stored language), replacing arrays and values.
 * `variableValues` is split off: it fills `{{name}}` templates and is not a setting.
 */
export function effectiveAssistant(
  base: AssistantDto,
  overrides: (AssistantDto & { variableValues?: Record<string, unknown> }) | undefined,
): { assistant: AssistantDto; variableValues: Record<string, unknown> } {
  if (overrides === undefined) return { assistant: structuredClone(base), variableValues: {} };
  const { variableValues = {}, ...settings } = overrides;
  return { assistant: merge(base, settings) as AssistantDto, variableValues };
}

function merge(base: unknown, override: unknown): unknown {
  if (!isObject(base) || !isObject(override))
    return structuredClone(override === undefined ? base : override);
  const result: Record<string, unknown> = structuredClone(base);
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined) continue;
    result[key] = merge(result[key], value);
  }
  return result;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
