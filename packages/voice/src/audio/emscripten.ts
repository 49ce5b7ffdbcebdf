/**
 * Loading the Emscripten-built WASM packages (`@echogarden/*`). They ship no type
 * declarations, so each user describes the exports it needs as an interface extending
 * {@link EmscriptenModule}, and loads the module through {@link loadEmscriptenModule}.
 *
 * Everything is loaded from the installed package files; nothing is fetched at run time.
 */

/** What every Emscripten module exposes. Heap views are replaced when memory grows, so
 * read them from the module object at each use instead of keeping them. */
export interface EmscriptenModule {
  readonly HEAPU8: Uint8Array;
  readonly HEAP16: Int16Array;
  readonly HEAP32: Int32Array;
  readonly HEAPU32: Uint32Array;
  readonly HEAPF32: Float32Array;
  _malloc(size: number): number;
  _free(pointer: number): void;
}

type ModuleFactory = (moduleArg?: object) => Promise<unknown>;

/**
 * Imports an Emscripten package and instantiates its module. Each call instantiates a new
 * module (its own WASM memory); callers cache the promise to load once.
 *
 * @param specifier the package (or package subpath) to import
 * @param requiredExports exported function names checked to exist, so a package that does
 *   not match the interface fails here with a clear message instead of later
 */
export async function loadEmscriptenModule<M extends EmscriptenModule>(
  specifier: string,
  requiredExports: readonly string[],
): Promise<M> {
  // The specifier is a plain string so TypeScript does not look for the package's (absent)
  // declarations; the shape is checked below instead.
  const imported = (await import(specifier)) as { default?: unknown };
  const factory = imported.default;
  if (typeof factory !== 'function') {
    throw new Error(`${specifier} does not export an Emscripten module factory`);
  }
  const instance = (await (factory as ModuleFactory)()) as Record<string, unknown>;
  for (const name of ['_malloc', '_free', ...requiredExports]) {
    if (typeof instance[name] !== 'function') {
      throw new Error(`${specifier}: the WASM module has no ${name} export`);
    }
  }
  return instance as unknown as M;
}

/**
 * Caches an async loader: the first call starts loading, later calls share the promise; a
 * failed load is forgotten so the next call tries again.
 */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    if (!pending) {
      pending = load();
      pending.catch(() => {
        pending = undefined;
      });
    }
    return pending;
  };
}
