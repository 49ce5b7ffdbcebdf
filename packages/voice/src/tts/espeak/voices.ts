/**
 * Choosing an eSpeak NG voice from a caller's voice name.
 *
 * Accepted names, case-insensitive, each optionally followed by `+variant` (a voice variant
 * such as `f3`, `m2`, `klatt`, `whisper`):
 * - a language tag eSpeak knows (`en-us`, `en-gb`, `fr`…): the voice that ranks that
 *   language highest;
 * - a voice identifier (`gmw/en-US`) or its last part (`en-US`);
 * - a voice's display name (`English (America)`).
 *
 * Anything else falls back to {@link DEFAULT_ESPEAK_VOICE} (an unknown variant falls back
 * to the same voice without the variant); the {@link VoiceResolution} says so.
 */

/** The voice used when the requested one does not exist. */
export const DEFAULT_ESPEAK_VOICE = 'en-us';

/** One voice of the eSpeak NG catalogue. */
export interface EspeakVoiceInfo {
  /** E.g. `gmw/en-US`. */
  identifier: string;
  /** E.g. `English (America)`. */
  name: string;
  /** Language tags with eSpeak's priority (1 is the strongest claim). */
  languages: { name: string; priority: number }[];
}

export interface EspeakCatalog {
  voices: readonly EspeakVoiceInfo[];
  /** Variant names (`f3`, `m2`, `klatt`…); empty when unknown, then any variant is accepted. */
  variants: readonly string[];
}

/** What a requested voice name turned into. */
export interface VoiceResolution {
  /** The name the caller asked for. */
  requested: string;
  /** The eSpeak voice specification used (`identifier` or `identifier+variant`). */
  voice: string;
  /** True when the request could not be honoured as asked and another voice is used. */
  fallback: boolean;
  /** Why, when `fallback` is true. */
  reason?: string;
}

/** Resolves a voice name against the catalogue; never throws (see the module comment). */
export function resolveEspeakVoice(requested: string, catalog: EspeakCatalog): VoiceResolution {
  const trimmed = requested.trim();
  const plus = trimmed.indexOf('+');
  const base = (plus >= 0 ? trimmed.slice(0, plus) : trimmed).trim();
  const variantName = plus >= 0 ? trimmed.slice(plus + 1).trim() : '';

  const voice = findVoice(base, catalog.voices);
  if (!voice) {
    const fallback = findVoice(DEFAULT_ESPEAK_VOICE, catalog.voices);
    return {
      requested,
      voice: fallback?.identifier ?? DEFAULT_ESPEAK_VOICE,
      fallback: true,
      reason: `eSpeak has no voice "${base}"; using ${DEFAULT_ESPEAK_VOICE}`,
    };
  }
  if (!variantName) return { requested, voice: voice.identifier, fallback: false };

  const variant =
    catalog.variants.length === 0
      ? variantName
      : catalog.variants.find((v) => v.toLowerCase() === variantName.toLowerCase());
  if (!variant) {
    return {
      requested,
      voice: voice.identifier,
      fallback: true,
      reason: `eSpeak has no voice variant "${variantName}"; using ${voice.identifier} without a variant`,
    };
  }
  return { requested, voice: `${voice.identifier}+${variant}`, fallback: false };
}

function findVoice(name: string, voices: readonly EspeakVoiceInfo[]): EspeakVoiceInfo | undefined {
  const wanted = name.toLowerCase();
  if (!wanted) return undefined;
  const byIdentifier =
    voices.find((v) => v.identifier.toLowerCase() === wanted) ??
    voices.find((v) => lastPart(v.identifier).toLowerCase() === wanted);
  if (byIdentifier) return byIdentifier;

  let best: EspeakVoiceInfo | undefined;
  let bestPriority = Infinity;
  for (const voice of voices) {
    for (const language of voice.languages) {
      if (language.name.toLowerCase() === wanted && language.priority < bestPriority) {
        best = voice;
        bestPriority = language.priority;
      }
    }
  }
  return best ?? voices.find((v) => v.name.toLowerCase() === wanted);
}

function lastPart(identifier: string): string {
  return identifier.slice(identifier.lastIndexOf('/') + 1);
}
