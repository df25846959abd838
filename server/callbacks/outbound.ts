import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { addressProblem } from './address';

// One outbound call of a callback, guarded against requests to where it must not go
// (docs/decisions/callbacks.md): only http(s); the host is resolved once, every address it resolves
// to is checked, and the socket connects to the checked address (the request's `lookup` hands it
// over, so nothing resolves the name a second time); redirects are not followed (node:http never
// does). Hosts named in CALLBACK_ALLOW_HOSTS skip the address check (tests, on-premise receivers).

export const CALL_TIMEOUT_MS = 5000;

export type CallResult =
  | { kind: 'response'; status: number }
  | { kind: 'refused'; reason: string }
  | { kind: 'error'; error: string };

/** CALLBACK_ALLOW_HOSTS: "host" or "host:port" entries, comma-separated (IPv6 in brackets). */
export function parseAllowHosts(value: string | undefined | null): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}

function defaultPort(u: URL) {
  return u.port || (u.protocol === 'https:' ? '443' : '80');
}

/** Whether the URL's host (any port) or host:port is named in the allow list. */
export function isAllowedHost(u: URL, allow: readonly string[]): boolean {
  const host = u.hostname.toLowerCase();
  return allow.includes(host) || allow.includes(`${host}:${defaultPort(u)}`);
}

/** Resolves the URL's host and checks every address: the address to connect to, or why not. */
export async function checkedAddress(
  u: URL,
  allow: readonly string[],
): Promise<{ address: string; family: number } | { refused: string }> {
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    return { refused: `scheme ${u.protocol} not allowed` };
  if (u.username || u.password) return { refused: 'credentials in the address are not allowed' };
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const exempt = isAllowedHost(u, allow);
  let addresses: { address: string; family: number }[];
  if (net.isIP(host)) addresses = [{ address: host, family: net.isIP(host) }];
  else {
    try {
      addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
    } catch (err) {
      return { refused: `host not resolved: ${(err as NodeJS.ErrnoException).code ?? 'error'}` };
    }
  }
  if (addresses.length === 0) return { refused: 'host not resolved' };
  if (!exempt) {
    for (const a of addresses) {
      const problem = addressProblem(a.address);
      if (problem) return { refused: `${a.address} is ${problem}` };
    }
  }
  return addresses[0];
}

/** POSTs the body to the URL (after the address check), waiting at most timeoutMs for the answer. */
export async function postChecked(
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: { allowHosts: readonly string[]; timeoutMs?: number },
): Promise<CallResult> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { kind: 'refused', reason: 'not a valid address' };
  }
  const timeoutMs = opts.timeoutMs ?? CALL_TIMEOUT_MS;
  // A resolver that does not answer counts against the same 5 s as the receiver.
  let lookupTimer: NodeJS.Timeout | undefined;
  const checked = await Promise.race([
    checkedAddress(u, opts.allowHosts),
    new Promise<null>((r) => (lookupTimer = setTimeout(() => r(null), timeoutMs))),
  ]).finally(() => clearTimeout(lookupTimer));
  if (!checked) return { kind: 'error', error: `host not resolved within ${timeoutMs} ms` };
  if ('refused' in checked) return { kind: 'refused', reason: checked.refused };
  const lib = u.protocol === 'https:' ? https : http;
  return new Promise<CallResult>((resolve) => {
    let done = false;
    const finish = (r: CallResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = lib.request(
      {
        protocol: u.protocol,
        hostname: u.hostname.replace(/^\[|\]$/g, ''),
        port: u.port || undefined,
        path: `${u.pathname}${u.search}`,
        method: 'POST',
        // The connection goes to the address checked above: no second lookup.
        lookup: ((_h: string, o: { all?: boolean }, cb: (...a: unknown[]) => void) =>
          o?.all
            ? cb(null, [{ address: checked.address, family: checked.family }])
            : cb(null, checked.address, checked.family)) as unknown as net.LookupFunction,
        agent: false,
        headers: {
          ...headers,
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'survey-callbacks/1',
        },
      },
      (res) => {
        // The body is not read beyond what arrives; the status decides.
        res.resume();
        finish({ kind: 'response', status: res.statusCode ?? 0 });
        res.on('error', () => {});
      },
    );
    const timer = setTimeout(() => {
      finish({ kind: 'error', error: `no answer within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (err) =>
      finish({ kind: 'error', error: (err as NodeJS.ErrnoException).code ?? err.message }),
    );
    req.end(body);
  });
}
