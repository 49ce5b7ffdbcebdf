import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const srcDir = fileURLToPath(new URL('.', import.meta.url));

/** The files that ship (what tsconfig includes): not tests, not test support. */
function shippedSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test-support' ? [] : shippedSources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every `import … from` / `export … from` statement, whole. */
function moduleStatements(source: string): string[] {
  return source.match(/^(?:import|export)\b[^;]*?\bfrom\s+'[^']+';/gms) ?? [];
}

describe('the shipped sources', () => {
  const files = shippedSources(srcDir);

  it('are found', () => {
    expect(files.map((file) => relative(srcDir, file)).sort()).toContain('http.ts');
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  it('import the protocol package for types only, so the bundle does not pull zod', () => {
    for (const file of files) {
      for (const statement of moduleStatements(readFileSync(file, 'utf8'))) {
        if (/from '(?:@talkbooth\/protocol|zod)'/.test(statement)) {
          expect(statement, relative(srcDir, file)).toMatch(/^(?:import|export) type\b/);
        }
      }
    }
  });

  it('import nothing Node-only', () => {
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      for (const statement of moduleStatements(source)) {
        expect(statement, relative(srcDir, file)).not.toMatch(/from '(?:node:|fs|path|http|url)/);
      }
      expect(source, relative(srcDir, file)).not.toMatch(/\b(?:Buffer|process|require)\b/);
    }
  });
});
