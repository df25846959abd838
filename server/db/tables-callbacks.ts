// Block callbacks (migration 015-callbacks, server/callbacks): the outbox of deliveries and each
// project's signing secret.

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'gave-up' | 'refused';

/**
 * One call of a block's callbackUrl. Written in the transaction of the answer that completes the
 * block (never lost), taken by a sender with a lease, and kept as the delivery log.
 */
export interface CallbackDeliveriesTable {
  /** The delivery id (X-Survey-Delivery): a random UUID, the same on every attempt. */
  id: string;
  project_id: number;
  block_id: string;
  /** null for a test call from the editor. */
  respondent_id: number | null;
  url: string;
  /** The JSON body as sent, byte for byte the same on every attempt. */
  body: string;
  /** 1 for "Send a test call". */
  test: number;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  /** When the next attempt is due (pending only). */
  next_attempt_at: number;
  /** A sender's claim: no other sender takes the delivery before this time. */
  lease_until: number | null;
  created_at: number;
  delivered_at: number | null;
}

/** The project's secret that signs its callbacks (X-Survey-Signature), made on first use. */
export interface ProjectCallbackSecretsTable {
  project_id: number;
  secret: string;
  created_at: number;
}
