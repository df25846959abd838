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
//
// Connections are kept alive (CallAgents below) per host, port *and checked address*: every call is
// checked afresh, and a kept connection serves only a call whose check gave the same address for
// the same host, so a connection never carries a call to an address its own check did not give.

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

/** How a host name becomes its addresses (dns.lookup, every address, in the resolver's order). */
export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;
const systemResolve: Resolve = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

/** Resolves the URL's host and checks every address: the address to connect to, or why not. */
export async function checkedAddress(
  u: URL,
  allow: readonly string[],
  resolve: Resolve = systemResolve,
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
      addresses = await resolve(host);
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

/** The request options an agent sees: the checked address rides along as the pool's key. */
type CheckedOptions = http.ClientRequestArgs & { checkedAddress?: string };

/**
 * http.Agent keeps free sockets per getName(); Node's name is host:port:localAddress:family (and, for
 * https, the TLS options and servername). The checked address is added to it, so a call reuses a kept
 * socket only when its own check gave the same address for the same host and port.
 */
class CheckedHttpAgent extends http.Agent {
  override getName(options?: CheckedOptions): string {
    return `${super.getName(options)}@${options?.checkedAddress ?? ''}`;
  }
}
class CheckedHttpsAgent extends https.Agent {
  override getName(options?: CheckedOptions): string {
    return `${super.getName(options as https.RequestOptions)}@${options?.checkedAddress ?? ''}`;
  }
}

/** Of a receiver's answer, only the status counts; this much of its body is read before the connection is dropped. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** A kept socket unused this long is closed (below the 5 s a Node server keeps an idle one). */
const IDLE_SOCKET_MS = 4000;

/** One sender's kept-alive connections (http and https); `destroy` closes them all. */
export class CallAgents {
  readonly http = new CheckedHttpAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' });
  readonly https = new CheckedHttpsAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' });
  destroy() {
    this.http.destroy();
    this.https.destroy();
  }
}

/** POSTs the body to the URL (after the address check), waiting at most timeoutMs for the answer. */
export async function postChecked(
  url: string,
  body: string,
  headers: Record<string, string>,
  opts: {
    allowHosts: readonly string[];
    timeoutMs?: number;
    /** Kept-alive connections to use; without them each call opens (and closes) its own. */
    agents?: CallAgents;
    resolve?: Resolve;
  },
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
    checkedAddress(u, opts.allowHosts, opts.resolve),
    new Promise<null>((r) => (lookupTimer = setTimeout(() => r(null), timeoutMs))),
  ]).finally(() => clearTimeout(lookupTimer));
  if (!checked) return { kind: 'error', error: `host not resolved within ${timeoutMs} ms` };
  if ('refused' in checked) return { kind: 'refused', reason: checked.refused };
  const secure = u.protocol === 'https:';
  const agent = opts.agents ? (secure ? opts.agents.https : opts.agents.http) : false;
  const options: http.RequestOptions & CheckedOptions = {
    protocol: u.protocol,
    hostname: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port || undefined,
    path: `${u.pathname}${u.search}`,
    method: 'POST',
    // A new connection goes to the address checked above: no second lookup.
    lookup: ((_h: string, o: { all?: boolean }, cb: (...a: unknown[]) => void) =>
      o?.all
        ? cb(null, [{ address: checked.address, family: checked.family }])
        : cb(null, checked.address, checked.family)) as unknown as net.LookupFunction,
    // A kept one only if it was made for this same address (CheckedHttpAgent.getName).
    checkedAddress: checked.address,
    agent,
    headers: {
      ...headers,
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': 'survey-callbacks/1',
    },
  };
  const deadline = Date.now() + timeoutMs;
  const first = await send(secure, options, body, timeoutMs);
  // A kept connection the receiver closed while it sat idle fails before any answer; the call was
  // never read there, so it is made once more (the agent drops the dead socket and opens a new one,
  // to the same checked address). Node's documentation recommends exactly this for keep-alive.
  if (first.kind !== 'stale') return first;
  const again = Date.now() < deadline ? await send(secure, options, body, deadline - Date.now()) : first;
  return again.kind === 'stale' ? { kind: 'error', error: again.error } : again;
}

/** A kept connection that turned out closed before it carried the call. */
type Attempt = CallResult | { kind: 'stale'; error: string };

function send(
  secure: boolean,
  options: http.RequestOptions,
  body: string,
  timeoutMs: number,
): Promise<Attempt> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (r: Attempt) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = (secure ? https : http).request(options, (res) => {
      finish({ kind: 'response', status: res.statusCode ?? 0 });
      // The status decides; the body is read and dropped so that the connection can be kept, up to
      // MAX_ANSWER_BYTES and the call's own time: a receiver that sends more, or never ends, loses
      // the connection rather than hold it.
      let read = 0;
      const limit = setTimeout(() => res.destroy(), timeoutMs);
      res.on('data', (c: Buffer) => {
        read += c.length;
        if (read > MAX_ANSWER_BYTES) res.destroy();
      });
      res.on('close', () => clearTimeout(limit));
      res.on('error', () => {});
    });
    const timer = setTimeout(() => {
      finish({ kind: 'error', error: `no answer within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (err) => {
      const code = (err as NodeJS.ErrnoException).code;
      const stale = req.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE');
      finish({ kind: stale ? 'stale' : 'error', error: code ?? err.message });
    });
    req.end(body);
  });
}
