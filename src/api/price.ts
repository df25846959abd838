import { api } from './client';
import { priceQuery, type PriceCounts, type ProjectPrice } from '../domain/projectPrice';

// GET /project/price: the price of one project for the counts of its content (not the settings).
export const getProjectPrice = (pid: number, counts: PriceCounts, signal?: AbortSignal) =>
  api.get<ProjectPrice>('/project/price', { query: priceQuery(pid, counts), signal });
