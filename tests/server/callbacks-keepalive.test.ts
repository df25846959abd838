import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type Session, type TestServer } from './helpers';
import {
  callbackContent,
  insertSurveyProject,
  startReceiver,
  until,
  type Receiver,
} from './callback-receiver';
import { Role } from '../../src/domain/roles';
import { CallAgents, postChecked, type Resolve } from '../../server/callbacks/outbound';

// Callbacks on kept-alive connections (issue 34, part 4): a connection is kept per host, port and
// checked address, and the address check runs for every call as before, so a kept connection
// carries a call only when that call's own check gave the same address for the same host. Two real
// receivers on two loopback addresses (127.0.0.1 and 127.0.0.2, one port); the names resolve through
// a resolver the test gives (as DNS would answer, and as DNS could change its answer). Then the
// server's sender end to end, on SQLite or PostgreSQL with TEST_DATABASE_URL.

const json = { 'content-type': 'application/json' };

describe('postChecked with kept connections', () => {
  let one: Receiver;
  let two: Receiver;
  let agents: CallAgents;
  beforeAll(async () => {
    one = await startReceiver();
    two = await startReceiver(() => 200, { host: '127.0.0.2', port: one.port });
  });
  afterAll(async () => {
    agents?.destroy();
    await one?.close();
    await two?.close();
  });

  it('reuses a connection only for the same host and checked address, and checks every call', async () => {
    agents = new CallAgents();
    const table: Record<string, string> = { 'hooks.test': '127.0.0.1', 'other.test': '127.0.0.1' };
    const resolve: Resolve = async (host) => [{ address: table[host], family: 4 }];
    const exempt = { allowHosts: ['hooks.test', 'other.test'], agents, resolve };
    const call = (host: string, opts = exempt) =>
      postChecked(`http://${host}:${one.port}/hook`, '{}', json, opts);

    expect(await call('hooks.test')).toEqual({ kind: 'response', status: 200 });
    expect(await call('hooks.test')).toEqual({ kind: 'response', status: 200 });
    expect(one.received).toHaveLength(2);
    // One connection carried both.
    expect(one.received[1].remotePort).toBe(one.received[0].remotePort);
    expect(one.received[1].headers.host).toBe(`hooks.test:${one.port}`);

    // The name now resolves elsewhere: the call goes where its own check says, on a new connection,
    // and the kept connection to 127.0.0.1 carries nothing.
    table['hooks.test'] = '127.0.0.2';
    expect(await call('hooks.test')).toEqual({ kind: 'response', status: 200 });
    expect(two.received).toHaveLength(1);
    expect(one.received).toHaveLength(2);

    // Another host on the same address and port: a connection of its own.
    expect(await call('other.test')).toEqual({ kind: 'response', status: 200 });
    expect(one.received).toHaveLength(3);
    expect(one.received[2].remotePort).not.toBe(one.received[0].remotePort);
    expect(one.received[2].headers.host).toBe(`other.test:${one.port}`);

    // Back to the first address: the connection kept for it is used again.
    table['hooks.test'] = '127.0.0.1';
    expect(await call('hooks.test')).toEqual({ kind: 'response', status: 200 });
    expect(one.received[3].remotePort).toBe(one.received[0].remotePort);

    // Without the exemption the same call is refused (loopback), though a connection made for exactly
    // this host and address is open and idle: the check runs first, and nothing is sent.
    const refused = await call('hooks.test', { ...exempt, allowHosts: [] });
    expect(refused).toEqual({ kind: 'refused', reason: '127.0.0.1 is loopback' });
    await new Promise((r) => setTimeout(r, 100));
    expect(one.received).toHaveLength(4);
    expect(await one.connections()).toBe(2);

    // Closing the agents closes the kept connections.
    agents.destroy();
    await until(
      async () => (await one.connections()) === 0 && (await two.connections()) === 0,
      5000,
      'closed',
    );
  });

  it('a kept connection the receiver dropped while idle is replaced, and the call goes through once more', async () => {
    // A receiver that drops a kept connection when its second call arrives, as one that closed an idle
    // connection the moment a call was sent on it.
    const seen: number[] = [];
    const calls = new Map<unknown, number>();
    const srv = http.createServer((req, res) => {
      seen.push(req.socket.remotePort ?? 0);
      const n = (calls.get(req.socket) ?? 0) + 1;
      calls.set(req.socket, n);
      if (n === 2) return req.socket.destroy();
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as { port: number }).port;
    const kept = new CallAgents();
    try {
      const opts = { allowHosts: [`127.0.0.1:${port}`], agents: kept };
      const url = `http://127.0.0.1:${port}/hook`;
      expect(await postChecked(url, '{}', json, opts)).toEqual({ kind: 'response', status: 200 });
      expect(await postChecked(url, '{}', json, opts)).toEqual({ kind: 'response', status: 200 });
      expect(seen).toHaveLength(3);
      expect(seen[1]).toBe(seen[0]);
      expect(seen[2]).not.toBe(seen[0]);
    } finally {
      kept.destroy();
      srv.closeAllConnections();
      await new Promise<void>((r) => srv.close(() => r()));
    }
  });
});

describe('the sender keeps its connections', () => {
  let server: TestServer;
  let receiver: Receiver;
  let admin: Session;
  let closed = false;
  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startServer((c) => {
      c.callbacks.allowHosts = [`127.0.0.1:${receiver.port}`];
      c.callbacks.pollMs = 50;
    });
    admin = await server.as(Role.Administrator);
  });
  afterAll(async () => {
    if (!closed) await server?.close();
    await receiver?.close();
  });

  it('sends one call after another over one connection, and closes it when the server stops', async () => {
    const { pid } = await insertSurveyProject(server, callbackContent(receiver.url));
    for (let i = 1; i <= 3; i++) {
      const res = await server.call('POST', '/project/callbacks/test', {
        session: admin,
        body: { pid, blockId: 'B1' },
      });
      expect(res.status).toBe(200);
      await until(() => receiver.received.length >= i, 10_000, `call ${i}`);
    }
    const ports = new Set(receiver.received.map((r) => r.remotePort));
    expect(ports.size).toBe(1);
    const log = await server.call('GET', `/project/callbacks?pid=${pid}`, { session: admin });
    await until(
      async () =>
        (
          (await server.call('GET', `/project/callbacks?pid=${pid}`, { session: admin })).body.items as {
            status: string;
          }[]
        ).every((d) => d.status === 'delivered'),
      10_000,
      'delivered',
    );
    expect(log.body.total).toBe(3);
    expect(await receiver.connections()).toBe(1);
    closed = true;
    await server.close();
    await until(async () => (await receiver.connections()) === 0, 5000, 'the kept connection closed');
  });
});
