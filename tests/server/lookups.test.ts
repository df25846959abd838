import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { City, State } from 'country-state-city';
import { startServer, type Session, type TestServer } from './helpers';
import { Role } from '../../src/domain/roles';
import { AGE_MAX, AGE_MIN, TARGET_PLATFORMS } from '../../src/domain/lookups';
import { CITY_NAMES_RU, REGION_NAMES_RU } from '../../server/data/ru-names';
import { cityIds, skeleton, transliterate } from '../../server/data/cities';

// The lookups the editor needs: target platforms, target fields, and the search over Russian
// cities in Cyrillic or Latin script.

describe('lookups', () => {
  let server: TestServer;
  let researcher: Session;

  beforeAll(async () => {
    server = await startServer();
    researcher = await server.as(Role.Researcher);
  });
  afterAll(async () => {
    await server?.close();
  });

  const cities = async (query: string, locale: 'ru' | 'en' = 'ru') => {
    const res = await server.call('GET', `/cities${query}`, { session: researcher, locale });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as {
      id: string;
      name: string;
      latinName: string;
      region: { id: string; name: string };
    }[];
  };

  it('lists the target platforms with translated names', async () => {
    const res = await server.call('GET', '/target-platforms', { session: researcher, locale: 'ru' });
    expect(res.body).toHaveLength(TARGET_PLATFORMS.length);
    expect(res.body[3]).toEqual({ id: 4, code: 'yandexGames', name: 'Яндекс Игры' });
  });

  it('lists the target fields gender, age, city and education with their values', async () => {
    const res = await server.call('GET', '/target-fields', { session: researcher });
    expect(res.body.map((f: { id: string }) => f.id)).toEqual(['gender', 'age', 'city', 'education']);
    expect(res.body[0].values).toEqual([
      { id: 'male', name: 'Male' },
      { id: 'female', name: 'Female' },
    ]);
    expect(res.body[1]).toMatchObject({ kind: 'range', min: AGE_MIN, max: AGE_MAX });
    expect(res.body[2]).toMatchObject({ kind: 'lookup', source: '/cities' });
    expect(res.body[3].values.map((v: { id: string }) => v.id)).toContain('higher');
  });

  it('finds cities typed in Cyrillic, the largest first, with Russian names and regions', async () => {
    const moscow = await cities(`?search=${encodeURIComponent('Мос')}&limit=3`);
    expect(moscow[0]).toEqual({
      id: 'MOW:Moscow',
      name: 'Москва',
      latinName: 'Moscow',
      region: { id: 'MOW', name: 'Москва' },
    });
    expect(moscow).toHaveLength(3);
    expect((await cities(`?search=${encodeURIComponent('тольятти')}`))[0].id).toBe('SAM:Tol’yatti');
    expect((await cities(`?search=${encodeURIComponent('Нижний Н')}`))[0].name).toBe('Нижний Новгород');
    expect((await cities(`?search=${encodeURIComponent('Щелково')}`))[0].name).toBe('Щёлково');
    const spb = await cities(`?search=${encodeURIComponent('санкт-петербург')}`);
    expect(spb[0].id).toBe('SPE:Saint Petersburg');
  });

  it('finds places without a Russian name by transliterating the query', async () => {
    // Kolomenskoye-type names and soft signs: «Ступино» → "Stupino", «Звенигород» → "Zvenigorod".
    const stupino = await cities(`?search=${encodeURIComponent('Ступино')}`);
    expect(stupino.map((c) => c.id)).toContain('MOS:Stupino');
    const zven = await cities(`?search=${encodeURIComponent('звенигород')}`);
    expect(zven.map((c) => c.id)).toContain('MOS:Zvenigorod');
    const izh = await cities(`?search=${encodeURIComponent('Ижевск')}`, 'en');
    expect(izh[0]).toMatchObject({ id: 'UD:Izhevsk', name: 'Izhevsk', region: { name: 'Udmurt Republic' } });
  });

  it('finds cities typed in Latin script, in any spelling of the soft sign', async () => {
    expect((await cities('?search=tolyatti'))[0].id).toBe('SAM:Tol’yatti');
    expect((await cities('?search=yekaterinburg'))[0].id).toBe('SVE:Yekaterinburg');
    expect((await cities('?search=ekaterinburg'))[0].id).toBe('SVE:Yekaterinburg');
  });

  it('limits, filters by region and leaves out administrative districts', async () => {
    expect(await cities('?search=a&limit=7')).toHaveLength(7);
    expect(await cities('?limit=500')).toHaveLength(100);
    const inMos = await cities(`?search=${encodeURIComponent('под')}&region=MOS&limit=50`);
    expect(inMos.length).toBeGreaterThan(0);
    expect(inMos.every((c) => c.region.id === 'MOS')).toBe(true);
    expect((await cities('?search=rayon&limit=100')).filter((c) => /rayon/i.test(c.latinName))).toEqual([]);
    expect((await server.call('GET', '/cities?limit=0', { session: researcher })).status).toBe(400);
    expect(
      (await server.call('GET', `/cities?search=${'x'.repeat(101)}`, { session: researcher })).status,
    ).toBe(400);
  });

  it('puts Irkutsk Oblast’s places back under IRK (the data set files them under Sevastopol’s code)', async () => {
    const irkutsk = await cities(`?search=${encodeURIComponent('Иркутск')}`);
    expect(irkutsk[0]).toMatchObject({ id: 'IRK:Irkutsk', region: { id: 'IRK', name: 'Иркутская область' } });
    const sevastopol = await cities(`?search=${encodeURIComponent('Севастополь')}`);
    expect(sevastopol[0]).toMatchObject({ id: 'UA-40:Sevastopol', region: { name: 'Севастополь' } });
  });

  it('ships a Russian name for every region and for cities that exist in the data set', () => {
    const regions = State.getStatesOfCountry('RU');
    expect(regions).toHaveLength(84);
    for (const r of regions) expect(REGION_NAMES_RU[r.isoCode], r.isoCode).toBeTruthy();
    const ids = new Set(cityIds());
    for (const [key] of CITY_NAMES_RU) expect(ids.has(key), key).toBe(true);
    expect(City.getCitiesOfCountry('RU')).toHaveLength(5545);
  });

  it('transliterates and folds spellings the way the data set writes names', () => {
    expect(transliterate('Щёлково')).toBe('shchelkovo');
    expect(skeleton('Нижний Новгород')).toBe(skeleton('Nizhniy Novgorod'));
    expect(skeleton('Набережные Челны')).toBe(skeleton('Naberezhnyye Chelny'));
    expect(skeleton('Королёв')).toBe(skeleton('Korolëv'));
    expect(skeleton('Пермь')).toBe(skeleton('Perm’'));
  });

  it('needs a session', async () => {
    expect((await server.call('GET', '/cities?search=Moscow')).status).toBe(401);
    expect((await server.call('GET', '/target-fields')).status).toBe(401);
  });
});
