import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { filtersFromSearch, FILTERS, searchWith, sortFromSearch } from '../../src/views/responses/filters';
import { RowCache } from '../../src/views/responses/rowCache';
import {
  everyone,
  NOTHING,
  selectedCount,
  targetOf,
  toggle,
  toggleAll,
} from '../../src/views/responses/selection';

// The /responses page's pure parts: the filters in the address (a copied link opens the same list),
// the store that pages 100 000 rows through a virtual table, and the selection that exclusion acts on.

describe('the list filters in the address', () => {
  it('keeps what makes sense and drops the rest, as the report does', () => {
    const f = filtersFromSearch(
      '?pid=4&gender=female&ageMin=18&ageMax=17&city=MOS&education=higher&portrait=p_1&status=completed' +
        '&from=2026-01-02&to=2026-01-01&flag=speeder&excluded=none&textSearch=%20asdf%20&junk=1&language=en',
    );
    // The age range and the date range are the wrong way round: neither filters.
    expect(f).toEqual({
      gender: 'female',
      city: 'MOS',
      education: 'higher',
      language: 'en',
      portrait: 'p_1',
      status: 'completed',
      flag: 'speeder',
      excluded: 'none',
      textSearch: 'asdf',
    });
    expect(
      filtersFromSearch(
        '?gender=robot&ageMin=200&status=gone&flag=bad&excluded=maybe&from=2026-13-45&language=EN!',
      ),
    ).toEqual({});
    // "all" is the list's default: the address leaves it out.
    expect(filtersFromSearch('?excluded=all')).toEqual({});
  });

  it('writes every filter into the address and reads the same filters back (pid and other keys kept)', () => {
    const value = (key: string) => {
      switch (key) {
        case 'gender':
          return fc.constantFrom('male', 'female');
        case 'ageMin':
          return fc.integer({ min: 14, max: 50 }).map(String);
        case 'ageMax':
          return fc.integer({ min: 50, max: 99 }).map(String);
        case 'education':
          return fc.constantFrom('basic', 'higher');
        case 'portrait':
          return fc.stringMatching(/^[A-Za-z0-9_-]{1,32}$/);
        case 'status':
          return fc.constantFrom('inProgress', 'completed', 'screenedOut', 'quotaFull');
        case 'from':
          return fc.constantFrom('2025-01-01', '2025-06-30');
        case 'to':
          return fc.constantFrom('2026-01-01', '2026-12-31');
        case 'flag':
          return fc.constantFrom('any', 'none', 'speeder', 'straight-liner', 'gibberish', 'duplicate');
        case 'excluded':
          return fc.constantFrom('none', 'only');
        case 'language':
          return fc.constantFrom('ru', 'en', 'kk');
        default:
          // city, textSearch: any text without surrounding blanks.
          return fc
            .string({ minLength: 1, maxLength: 40 })
            .filter((s) => s.trim() === s && s !== '' && !s.includes('\0'));
      }
    };
    const record = fc.record(Object.fromEntries(FILTERS.map((f) => [f.key, value(f.key)])), {
      requiredKeys: [],
    });
    fc.assert(
      fc.property(record, (filters) => {
        const search = searchWith('pid=12&sort=duration', { filters: filters as Record<string, string> });
        expect(new URLSearchParams(search).get('pid')).toBe('12');
        expect(sortFromSearch(search)).toBe('duration');
        expect(filtersFromSearch(search)).toEqual(filters);
      }),
    );
  });

  it("names a language from the address before the questionnaire's languages have come", () => {
    // The select shows this while the project's facts load: "English", not "en".
    const language = FILTERS.find((f) => f.key === 'language');
    expect(language?.kind === 'select' && language.nameOf?.('en', 'en')).toBe('English');
    expect(language?.kind === 'select' && language.nameOf?.('en', 'ru')).toBe('Английский');
  });

  it('leaves the default sort out of the address', () => {
    expect(searchWith('pid=1&sort=duration', { sort: '-started' })).toBe('pid=1');
    expect(sortFromSearch('?sort=nonsense')).toBe('-started');
  });
});

/** A list of `total` rows served a page at a time, recording what was asked and aborted. */
function server(total: number) {
  const asked: number[] = [];
  const aborted: number[] = [];
  const pending = new Map<number, { resolve: () => void; reject: (e: unknown) => void }>();
  let rows = Array.from({ length: total }, (_, i) => `row ${i}`);
  const fetchPage = (page: number, signal: AbortSignal) =>
    new Promise<{ items: string[]; total: number }>((resolve, reject) => {
      asked.push(page);
      signal.addEventListener('abort', () => {
        aborted.push(page);
        reject(new DOMException('aborted', 'AbortError'));
      });
      pending.set(page, {
        resolve: () => resolve({ items: rows.slice((page - 1) * 10, page * 10), total: rows.length }),
        reject,
      });
    });
  return {
    asked,
    aborted,
    fetchPage,
    setRows: (r: string[]) => (rows = r),
    /** Answers every request in flight. */
    async answer() {
      const all = [...pending.values()];
      pending.clear();
      for (const p of all) p.resolve();
      await new Promise((r) => setTimeout(r, 0));
    },
    inFlight: () => pending.size,
  };
}

describe('the row store of the virtual table', () => {
  it('asks for the first page, then only the pages covering what is on screen, a few at a time', async () => {
    const s = server(1000);
    const cache = new RowCache<string>({ pageSize: 10, fetchPage: s.fetchPage, parallel: 2 });
    cache.want(0, 25);
    expect(s.asked).toEqual([1]); // the count is not known yet
    await s.answer();
    expect(cache.getSnapshot().total).toBe(1000);
    expect(cache.rowAt(3)).toBe('row 3');
    // Now that it is, the rest of what was asked for.
    expect(s.asked).toEqual([1, 2, 3]);
    await s.answer();
    expect(cache.rowAt(25)).toBe('row 25');
    s.asked.length = 1;
    // Rows 500–529: pages 51–53, two at a time.
    cache.want(500, 529);
    expect(s.asked.slice(1)).toEqual([51, 52]);
    await s.answer();
    expect(s.asked.slice(1)).toEqual([51, 52, 53]);
    await s.answer();
    expect(cache.rowAt(529)).toBe('row 529');
    expect(cache.rowAt(600)).toBeUndefined();
    // Scrolled there again: nothing is asked twice.
    cache.want(500, 529);
    expect(s.asked.length).toBe(4);
  });

  it('drops the requests of pages scrolled past before they answered', async () => {
    const s = server(1000);
    const cache = new RowCache<string>({ pageSize: 10, fetchPage: s.fetchPage, parallel: 2 });
    cache.want(0, 5);
    await s.answer();
    cache.want(100, 119); // pages 11, 12 in flight
    cache.want(900, 909); // …scrolled past them
    expect(s.aborted).toEqual([11, 12]);
    expect(s.asked.at(-1)).toBe(91);
    await s.answer();
    expect(cache.rowAt(905)).toBe('row 905');
    expect(cache.rowAt(105)).toBeUndefined();
  });

  it('keeps at most `keep` pages, forgetting the ones used longest ago', async () => {
    const s = server(1000);
    const cache = new RowCache<string>({ pageSize: 10, fetchPage: s.fetchPage, keep: 3 });
    for (const at of [0, 100, 200, 300, 400]) {
      cache.want(at, at + 9);
      await s.answer();
    }
    expect([0, 100, 200, 300, 400].map((i) => cache.rowAt(i) !== undefined)).toEqual([
      false,
      false,
      true,
      true,
      true,
    ]);
  });

  it('refreshes in place: old rows stay on screen until the new ones arrive, and a late old answer is ignored', async () => {
    const s = server(50);
    const cache = new RowCache<string>({ pageSize: 10, fetchPage: s.fetchPage });
    cache.want(0, 19);
    await s.answer();
    await s.answer();
    expect(cache.rowAt(12)).toBe('row 12');
    // Ten respondents were excluded by a filter: the list is shorter now.
    s.setRows(Array.from({ length: 40 }, (_, i) => `new ${i}`));
    cache.refresh();
    expect(cache.rowAt(12)).toBe('row 12'); // no blank table meanwhile
    expect(cache.hasRow(12)).toBe(false);
    await s.answer();
    await s.answer();
    expect(cache.rowAt(12)).toBe('new 12');
    expect(cache.getSnapshot().total).toBe(40);
  });

  it('says what failed and fetches again on refresh', async () => {
    let fail = true;
    const cache = new RowCache<string>({
      pageSize: 10,
      fetchPage: async () => {
        if (fail) throw new Error('Server response status: 500');
        return { items: ['a'], total: 1 };
      },
    });
    cache.want(0, 9);
    await new Promise((r) => setTimeout(r, 0));
    expect(cache.getSnapshot().error).toBe('Server response status: 500');
    fail = false;
    cache.refresh();
    await new Promise((r) => setTimeout(r, 0));
    expect(cache.getSnapshot()).toMatchObject({ error: null, total: 1 });
    expect(cache.rowAt(0)).toBe('a');
  });
});

describe('the selection exclusion acts on', () => {
  it('is some ids, or everyone the filter matches; unticking one of everyone starts again from that row', () => {
    let s = toggle(NOTHING, 5);
    s = toggle(s, 7);
    expect(targetOf(s)).toEqual({ ids: [5, 7] });
    s = toggleAll(s, [5, 7, 9]);
    expect(selectedCount(s)).toBe(3);
    s = toggleAll(s, [5, 7, 9]);
    expect(selectedCount(s)).toBe(0);
    const all = everyone({ flag: 'speeder' }, 120);
    expect(selectedCount(all)).toBe(120);
    expect(targetOf(all)).toEqual({ filter: { flag: 'speeder' } });
    expect(targetOf(toggle(all, 3))).toEqual({ ids: [3] });
  });
});
