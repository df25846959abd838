import { api } from './client';
import type { CalculatorSettings, Tariff, VkPercent } from '../domain/pricing';

// Tariffs, the calculator's settings and the VK percent (spec section 7, Tariffs).

export const TARIFFS_PATH = '/tariffs';

export const createTariff = (body: { name: string; discount: number }) => api.post<Tariff>('/tariffs', body);
export const updateTariff = (body: { tariffId: number; name: string; discount: number }) =>
  api.put<Tariff>('/tariff', body);
export const deleteTariff = (tariffId: number) => api.del<{ ok: true }>('/tariff', { tariffId });
/** Every tariff, for a picker (at most a hundred: more would be a list page, not a picker). */
export const allTariffs = () =>
  api.list<Tariff>('/tariffs', { query: { pageSize: 100, sort: 'name', order: 'asc' } });

export const getCalculator = () => api.get<CalculatorSettings>('/tariffs/calculator');
export const saveCalculator = (body: CalculatorSettings) =>
  api.post<CalculatorSettings>('/tariffs/calculator', body);
export const getVkPercent = () => api.get<VkPercent>('/vk/percent');
export const saveVkPercent = (body: VkPercent) => api.post<VkPercent>('/vk/percent', body);
