import { describe, expect, it } from 'vitest';
import { addressProblem, embeddedIPv4 } from '../../server/callbacks/address';
import { isAllowedHost, parseAllowHosts } from '../../server/callbacks/outbound';
import { outcome, retryDelay, retryGaps } from '../../server/callbacks/sender';
import { completedBlock, callbackAnswer } from '../../server/callbacks/deliveries';
import { runFlow } from '../../src/domain/flow';
import { newAnswer, newBlock, newQuestion, newQuestionnaire } from '../../src/domain/content/factory';

// The callback's address check as a pure function over address literals: these addresses are data
// only; nothing here resolves or connects to anything.

describe('addressProblem', () => {
  const refused: [string, string][] = [
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:7f00:1::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['not an address', 'not-an-address'],
  ];
  it.each(refused)('refuses %s (%s)', (ip, why) => expect(addressProblem(ip)).toBe(why));

  const allowed = [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4010::8a',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ];
  it.each(allowed)('allows the public address %s', (ip) => expect(addressProblem(ip)).toBeNull());

  it('reads the IPv4 address inside IPv6 forms', () => {
    expect(embeddedIPv4('::ffff:192.168.0.1')).toBe('192.168.0.1');
    expect(embeddedIPv4('::ffff:c0a8:1')).toBe('192.168.0.1');
    expect(embeddedIPv4('2001:db8::1')).toBeNull();
  });
});

describe('CALLBACK_ALLOW_HOSTS', () => {
  it('exempts a named host on any port, or host:port on that port only', () => {
    const allow = parseAllowHosts(' Hooks.Local , 127.0.0.1:8081,[::1]:90');
    expect(allow).toEqual(['hooks.local', '127.0.0.1:8081', '[::1]:90']);
    expect(isAllowedHost(new URL('https://hooks.local:9443/x'), allow)).toBe(true);
    expect(isAllowedHost(new URL('http://127.0.0.1:8081/x'), allow)).toBe(true);
    expect(isAllowedHost(new URL('http://127.0.0.1:8082/x'), allow)).toBe(false);
    expect(isAllowedHost(new URL('http://127.0.0.1/x'), allow)).toBe(false);
    expect(isAllowedHost(new URL('http://[::1]:90/x'), allow)).toBe(true);
  });
});

describe('retries', () => {
  it('doubles from the base and the last of 12 attempts falls within 24 hours', () => {
    const gaps = retryGaps(30_000, 12);
    expect(gaps.slice(0, 3)).toEqual([30_000, 60_000, 120_000]);
    expect(gaps).toHaveLength(11);
    expect(gaps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(24 * 3600_000);
  });
  it('caps the gaps when doubling would pass 24 hours', () => {
    const gaps = retryGaps(600_000, 20);
    expect(gaps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(24 * 3600_000);
    expect(gaps[0]).toBe(600_000);
    expect(Math.max(...gaps)).toBeLessThan(600_000 * 2 ** 18);
  });
  it('jitters each gap between half and all of it', () => {
    const gaps = retryGaps(1000, 5);
    expect(retryDelay(gaps, 2, 0)).toBe(1000);
    expect(retryDelay(gaps, 2, 1)).toBe(2000);
  });
  it('decides from the answer: 2xx delivered, 410 failed, else pending until the last attempt', () => {
    const gaps = retryGaps(1000, 3);
    expect(outcome({ kind: 'response', status: 204 }, 0, gaps, 3, 5).status).toBe('delivered');
    expect(outcome({ kind: 'response', status: 410 }, 0, gaps, 3, 5).status).toBe('failed');
    expect(outcome({ kind: 'response', status: 302 }, 0, gaps, 3, 5).status).toBe('pending');
    expect(outcome({ kind: 'error', error: 'ECONNREFUSED' }, 1, gaps, 3, 5).status).toBe('pending');
    expect(outcome({ kind: 'response', status: 500 }, 2, gaps, 3, 5).status).toBe('gave-up');
    expect(outcome({ kind: 'refused', reason: 'x' }, 0, gaps, 3, 5)).toMatchObject({
      status: 'refused',
      attempts: 0,
    });
  });
});

describe('completedBlock', () => {
  const q = (id: string, redirectTo?: string) =>
    newQuestion({
      id,
      text: id,
      answers: [
        newAnswer({ id: `${id}a`, text: 'A' }),
        newAnswer({ id: `${id}n`, text: 'N', screening: 'deny' }),
      ],
      ...(redirectTo ? { redirect: { kind: 'completeBlock' as const, target: null } } : {}),
    });
  const content = {
    questionnaires: [
      newQuestionnaire({
        id: 'Q',
        blocks: [
          newBlock({ id: 'B1', questions: [q('a', 'skip'), q('b')] }),
          newBlock({
            id: 'B2',
            questions: [
              q('c'),
              newQuestion({
                id: 'd',
                text: 'd',
                category: 'screening',
                answers: [
                  newAnswer({ id: 'dy', text: 'y', screening: 'allow' }),
                  newAnswer({ id: 'dn', text: 'n', screening: 'deny' }),
                ],
              }),
            ],
          }),
        ],
      }),
    ],
    portraits: [],
  };
  const flow = (replies: [string, string][]) =>
    runFlow(
      content,
      { questionnaireId: 'Q', seed: 's' },
      replies.map(([questionId, a]) => ({ questionId, reply: { answers: [a] } })),
    );
  it('the page that leaves a block completes it; a page inside it does not', () => {
    // "complete current block" from a: B1 is completed by its first page.
    expect(completedBlock(content, flow([['a', 'aa']]), 0)?.id).toBe('B1');
    expect(
      completedBlock(
        content,
        flow([
          ['a', 'aa'],
          ['c', 'ca'],
        ]),
        1,
      ),
    ).toBeNull();
  });
  it('the last page of a completed survey completes its block; a screened-out end does not', () => {
    expect(
      completedBlock(
        content,
        flow([
          ['a', 'aa'],
          ['c', 'ca'],
          ['d', 'dy'],
        ]),
        2,
      )?.id,
    ).toBe('B2');
    expect(
      completedBlock(
        content,
        flow([
          ['a', 'aa'],
          ['c', 'ca'],
          ['d', 'dn'],
        ]),
        2,
      ),
    ).toBeNull();
  });
  it('shapes answers: matrix cells as statement:answer, text and value when given', () => {
    expect(callbackAnswer({ id: 'm', category: 'matrix' }, { cells: { s1: 'c2' } })).toEqual({
      questionId: 'm',
      answerIds: ['s1:c2'],
      text: null,
      value: null,
    });
    expect(callbackAnswer({ id: 'o', category: 'open' }, { text: ' hi ' })).toMatchObject({ text: 'hi' });
    expect(callbackAnswer({ id: 'n', category: 'nps' }, { value: 0 })).toMatchObject({ value: 0 });
  });
});
