/// <reference types="node" />
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Web features do not import each other (ARCHITECTURE.md). Biome enforces it with one
 * noRestrictedImports override per feature in biome.json; these checks keep that list complete
 * when a feature is added, and read the imports themselves so the rule cannot silently match nothing.
 */
const src = path.dirname(fileURLToPath(import.meta.url));
const featuresDir = path.join(src, 'features');
const features = readdirSync(featuresDir).filter((name) => statSync(path.join(featuresDir, name)).isDirectory());

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

/** The folder under src/ (and the feature, if any) that a file or import target lies in. */
function area(file: string): string {
  const [top, feature] = path.relative(src, file).split(path.sep);
  return top === 'features' ? `features/${feature}` : (top ?? '');
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

describe('web feature boundaries', () => {
  it('biome.json restricts every feature from importing every other one', () => {
    const biome = JSON.parse(readFileSync(path.join(src, '../../../biome.json'), 'utf8'));
    for (const feature of features) {
      const override = biome.overrides.find((o: { includes: string[] }) => o.includes.includes(`apps/web/src/features/${feature}/**`));
      expect(override, `an override for features/${feature}`).toBeDefined();
      const groups: string[] = override.linter.rules.style.noRestrictedImports.options.patterns.flatMap(
        (p: { group: string[] }) => p.group,
      );
      for (const other of features.filter((f) => f !== feature)) expect(groups).toContain(`**/${other}/**`);
    }
  });

  it('no feature, and no shared module, imports from a feature it is not', () => {
    const crossings: string[] = [];
    for (const file of sourceFiles(src)) {
      const from = area(file);
      if (from === 'pages' || from === 'app' || from === 'featureBoundaries.test.ts') continue; // screens and the shell compose features
      for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const to = area(path.resolve(path.dirname(file), match[1] ?? match[2] ?? ''));
        if (to.startsWith('features/') && to !== from) crossings.push(`${path.relative(src, file)} → ${match[1] ?? match[2]}`);
      }
    }
    expect(crossings).toEqual([]);
  });
});
