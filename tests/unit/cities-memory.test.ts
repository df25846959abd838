import { createRequire } from 'node:module';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { regions, searchCities } from '../../server/data/cities';

// The world's cities (npm country-state-city) are read once to index Russia's and then let go: kept
// in require's cache they held ≈ 65 MB of the server's heap for its whole life (server/data/cities.ts).

const require = createRequire(import.meta.url);
const lib = path.dirname(path.dirname(require.resolve('country-state-city')));
const loaded = () => Object.keys(require.cache).filter((file) => file.startsWith(lib + path.sep));

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const liveMb = () => {
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
};

describe('the places index', () => {
  it('keeps Russia’s places and regions, and lets the package’s world go once built', () => {
    const before = liveMb();
    expect(regions().get('MOW')).toEqual({ en: 'Moscow', ru: 'Москва' });
    const [first] = searchCities({ search: 'Тольятти', limit: 5, locale: 'ru' });
    expect(first.name).toBe('Тольятти');
    expect(loaded()).toEqual([]);
    // The index itself is a few MB; the package's cities held ≈ 65 MB more.
    expect(liveMb() - before).toBeLessThan(20);
  });
});
