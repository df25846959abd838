import { useCallback, useEffect, useState } from 'react';
import type { Currency, LookupItem } from '../../domain/games';
import { getCurrencies, getGenres, getPlatforms } from '../../api/games';
import { errorMessage } from './format';

export interface Lookups {
  genres: LookupItem[];
  platforms: LookupItem[];
  currencies: Currency[];
  loading: boolean;
  error: string | null;
  reload: () => void;
  addGenre: (item: LookupItem) => void;
  addPlatform: (item: LookupItem) => void;
}

const byName = (a: LookupItem, b: LookupItem) => a.name.localeCompare(b.name);

/** The three lookup lists of the game form, loaded together each time the form opens. */
export function useLookups(): Lookups {
  const [genres, setGenres] = useState<LookupItem[]>([]);
  const [platforms, setPlatforms] = useState<LookupItem[]>([]);
  const [currencies, setCurrencies] = useState<Currency[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    setLoading(true);
    setError(null);
    Promise.all([getGenres(), getPlatforms(), getCurrencies()]).then(
      ([g, p, c]) => {
        if (!live) return;
        setGenres(g);
        setPlatforms(p);
        setCurrencies(c);
        setLoading(false);
      },
      (err: unknown) => {
        if (!live) return;
        setError(errorMessage(err));
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [version]);

  return {
    genres,
    platforms,
    currencies,
    loading,
    error,
    reload: useCallback(() => setVersion((v) => v + 1), []),
    addGenre: useCallback((item: LookupItem) => setGenres((list) => [...list, item].sort(byName)), []),
    addPlatform: useCallback((item: LookupItem) => setPlatforms((list) => [...list, item].sort(byName)), []),
  };
}
