import crypto from 'node:crypto';
import { promisify } from 'node:util';

// scrypt with its parameters kept in the stored string ("scrypt$logN$r$p$salt$hash"), so they can be
// raised later while old hashes still verify.

const scrypt = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

const KEY_LEN = 32;

function options(logN: number, r: number, p: number): crypto.ScryptOptions {
  const N = 2 ** logN;
  // scrypt needs 128 * N * r bytes; the default maxmem (32 MiB) is too small for N = 2^17.
  return { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
}

export async function hashPassword(password: string, logN: number): Promise<string> {
  const salt = crypto.randomBytes(16);
  const r = 8;
  const p = 1;
  const key = await scrypt(password.normalize('NFC'), salt, KEY_LEN, options(logN, r, p));
  return ['scrypt', logN, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, logN, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(
    password.normalize('NFC'),
    Buffer.from(salt, 'base64url'),
    expected.length,
    options(Number(logN), Number(r), Number(p)),
  );
  return crypto.timingSafeEqual(key, expected);
}

const dummyHashes = new Map<number, Promise<string>>();

/** Spends the same time as a real check, so an unknown email cannot be told apart by timing. */
export async function verifyDummy(password: string, logN: number): Promise<false> {
  if (!dummyHashes.has(logN)) dummyHashes.set(logN, hashPassword('dummy-password-1', logN));
  await verifyPassword(password, await dummyHashes.get(logN)!);
  return false;
}
