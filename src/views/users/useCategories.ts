import { useEffect, useState } from 'react';
import { getCategories } from '../../api/organizations';
import type { Category } from '../../domain/organizations';

// The category list, fetched once per session of the page (it changes only by migration).
let cached: Promise<Category[]> | null = null;

export function useCategories(): Category[] {
  const [list, setList] = useState<Category[]>([]);
  useEffect(() => {
    let live = true;
    cached ??= getCategories().catch((err: unknown) => {
      cached = null;
      throw err;
    });
    cached.then(
      (c) => live && setList(c),
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);
  return list;
}
