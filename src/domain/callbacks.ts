import * as v from 'valibot';
import { bodyId, queryDigits, queryId } from './validation';

// Block callbacks' calls (docs/decisions/callbacks.md): the shapes the server validates and the
// editor's block panel sends and reads.

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'gave-up', 'refused'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Deliveries that "Retry" may send again. */
export const RETRYABLE: readonly DeliveryStatus[] = ['failed', 'gave-up', 'refused'];

const itemId = v.pipe(v.string('type'), v.regex(/^[A-Za-z0-9_-]{1,32}$/, 'invalid'));
const deliveryId = v.pipe(v.string('type'), v.regex(/^[0-9a-f-]{36}$/, 'invalid'));
const optionalQueryInt = (max: number, fallback: number) =>
  v.optional(
    v.pipe(
      v.string('type'),
      queryDigits,
      v.toNumber('integer'),
      v.integer('integer'),
      v.minValue(0, 'tooSmall'),
      v.maxValue(max, 'tooBig'),
    ),
    String(fallback),
  );

export const CallbacksQuery = v.object({
  pid: queryId,
  blockId: v.optional(itemId),
  limit: optionalQueryInt(100, 20),
  offset: optionalQueryInt(1_000_000, 0),
});

export const SecretBody = v.strictObject({ pid: bodyId });
export const RetryBody = v.strictObject({ pid: bodyId, id: deliveryId });
export const TestCallBody = v.strictObject({ pid: bodyId, blockId: itemId });

/** One delivery as GET /project/callbacks lists it. */
export interface Delivery {
  id: string;
  blockId: string;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  /** When a pending delivery is tried next (unix ms); null otherwise. */
  nextAttemptAt: number | null;
  createdAt: number;
  deliveredAt: number | null;
  test: boolean;
}

export interface DeliveryPage {
  items: Delivery[];
  total: number;
}
