/**
 * The assistant's voice level (0..1), updated about ten times a second during a call. It lives
 * outside React state so that only the picture and the meter re-render with it, not the page.
 */
export interface LevelStore {
  get(): number;
  set(level: number): void;
  subscribe(onChange: () => void): () => void;
}

export function createLevelStore(): LevelStore {
  let level = 0;
  const listeners = new Set<() => void>();
  return {
    get: () => level,
    set(next) {
      const clamped = Number.isFinite(next) ? Math.min(1, Math.max(0, next)) : 0;
      if (clamped === level) return;
      level = clamped;
      for (const listener of listeners) listener();
    },
    subscribe(onChange) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
  };
}
