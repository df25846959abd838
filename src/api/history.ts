import { api } from './client';
import type { HistoryEntry } from '../domain/history';

// The log (spec section 7: GET /history, query upto and limit).

export const getHistory = (
  query: { upto?: number; uptoId?: number; limit?: number; chapter?: string; email?: string },
  signal?: AbortSignal,
) => api.get<HistoryEntry[]>('/history', { query, signal });

export const getHistoryChapters = () => api.get<string[]>('/history/chapters');
