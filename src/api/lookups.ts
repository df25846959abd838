import { api } from './client';
import type { City, TargetField, TargetPlatform } from '../domain/lookups';

// Lookups the editor needs (spec section 7): target platforms, target fields, cities.

export const getTargetPlatforms = () => api.get<TargetPlatform[]>('/target-platforms');
export const getTargetFields = () => api.get<TargetField[]>('/target-fields');
export const findCities = (
  query: { search?: string; limit?: number; region?: string },
  signal?: AbortSignal,
) => api.get<City[]>('/cities', { query, signal });
