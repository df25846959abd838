import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import { Role } from '../../src/domain/roles';
import { searchCities } from '../../server/data/cities';

// Issue #17, item 4: people type Russian city names in Latin letters ("Moskva"), in the other
// language ("Moscow" in Russian, «Москва» in English) and in part ("Mosk"). Every form finds the
// city, matches at the start of the name first.

const first = (search: string, locale: 'ru' | 'en' = 'en') =>
  searchCities({ search, limit: 5, locale })[0]?.id;

describe('city search in either script and language', () => {
  it.each([
    ['Moskva', 'MOW:Moscow'],
    ['moskva', 'MOW:Moscow'],
    ['Mosk', 'MOW:Moscow'],
    ['Moscow', 'MOW:Moscow'],
    ['Москва', 'MOW:Moscow'],
    ['Моск', 'MOW:Moscow'],
    ['Sankt-Peterburg', 'SPE:Saint Petersburg'],
    ['Sankt Peterburg', 'SPE:Saint Petersburg'],
    ['Saint Petersburg', 'SPE:Saint Petersburg'],
    ['Санкт-Петербург', 'SPE:Saint Petersburg'],
    ['Ekaterinburg', 'SVE:Yekaterinburg'],
    ['Yekaterinburg', 'SVE:Yekaterinburg'],
    ['Екатеринбург', 'SVE:Yekaterinburg'],
    ['Nizhniy Novgorod', 'NIZ:Nizhniy Novgorod'],
    ['Питер', 'SPE:Saint Petersburg'],
    ['SPb', 'SPE:Saint Petersburg'],
    ['Togliatti', 'SAM:Tol’yatti'],
    ['Tolyatti', 'SAM:Tol’yatti'],
    ['Кириши', 'LEN:Kirishi'],
    ['Rostov-na-Donu', 'ROS:Rostov-na-Donu'],
    ['Нижний Новгород', 'NIZ:Nizhniy Novgorod'],
  ])('"%s" finds %s first', (search, id) => {
    expect(first(search, 'en')).toBe(id);
    expect(first(search, 'ru')).toBe(id);
  });

  it('ranks matches at the start of the name before matches inside it', () => {
    const ids = searchCities({ search: 'Peterburg', limit: 20, locale: 'en' }).map((c) => c.id);
    expect(ids).toContain('SPE:Saint Petersburg');
    const names = searchCities({ search: 'Kras', limit: 20, locale: 'en' }).map((c) => c.latinName);
    const firstInside = names.findIndex((n) => !/^kras/i.test(n) && !/\bkras/i.test(n));
    const lastStart = names.map((n) => /^kras/i.test(n)).lastIndexOf(true);
    if (firstInside >= 0) expect(lastStart).toBeLessThan(firstInside);
    expect(names[0]).toBe('Krasnoyarsk');
  });
});

describe('GET /cities', () => {
  let server: TestServer;
  let researcher: Session;
  beforeAll(async () => {
    server = await startServer();
    researcher = await server.as(Role.Researcher);
  });
  afterAll(async () => server?.close());

  it('answers Москва for "Moskva" in Russian and Moscow in English', async () => {
    const ru = await server.call('GET', '/cities?search=Moskva', { session: researcher, locale: 'ru' });
    expect(ru.status).toBe(200);
    expect(ru.body[0]).toMatchObject({ id: 'MOW:Moscow', name: 'Москва', latinName: 'Moscow' });
    const en = await server.call('GET', `/cities?search=${encodeURIComponent('Санкт-Петербург')}`, {
      session: researcher,
      locale: 'en',
    });
    expect(en.body[0]).toMatchObject({ id: 'SPE:Saint Petersburg', name: 'Saint Petersburg' });
  });
});
