import { api } from './client';
import type { DeliveryPage } from '../domain/callbacks';

// Block callbacks' calls (docs/api.md, "Block callbacks").

export function fetchDeliveries(
  pid: number,
  blockId: string,
  limit = 5,
  signal?: AbortSignal,
): Promise<DeliveryPage> {
  return api.get<DeliveryPage>('/project/callbacks', { query: { pid, blockId, limit }, signal });
}

export function sendTestCall(pid: number, blockId: string): Promise<{ id: string }> {
  return api.post<{ id: string }>('/project/callbacks/test', { pid, blockId });
}

export function retryDelivery(pid: number, id: string): Promise<{ id: string }> {
  return api.post<{ id: string }>('/project/callbacks/retry', { pid, id });
}
