// Block callbacks (docs/decisions/callbacks.md): what the answer's transaction calls.
export { blockCallback, writeDelivery } from './deliveries';
export { wakeSender } from './sender';
