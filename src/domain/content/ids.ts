// Ids of questionnaires, blocks, questions, answers, statements and portraits: 12 random characters,
// made on the client so that an item has its id (and redirects can point at it) before any save.

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function newId(): string {
  const bytes = new Uint8Array(12);
  globalThis.crypto.getRandomValues(bytes);
  let s = '';
  // 256 is not a multiple of 62, so the first letters are slightly likelier; harmless for ids.
  for (const b of bytes) s += ALPHABET[b % ALPHABET.length];
  return s;
}
