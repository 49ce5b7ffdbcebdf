import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundFetch, forbiddenRange, OutboundAddressRefused } from './outbound.js';

let listener: http.Server;
let port: number;
const received: string[] = [];
beforeAll(async () => {
  listener = http.createServer((request, response) => {
    received.push(`${request.method} ${request.url}`);
    response.end('ok');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => listener.close(resolve));
});

describe('forbiddenRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.9', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
  ])('%s is %s', (address, range) => {
    expect(forbiddenRange(address)).toBe(range);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111'])('%s is public', (address) => {
    expect(forbiddenRange(address)).toBeNull();
  });
});

describe('the outbound fetch (a local listener proves whether a request left)', () => {
  it('refuses a loopback address written as an IP literal, sending nothing', async () => {
    const { fetch, close } = createOutboundFetch({ allowPrivate: false });
    const before = received.length;
    const error = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
      method: 'POST',
    }).catch((e: unknown) => e);
    await close();
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).cause).toBeInstanceOf(OutboundAddressRefused);
    expect(((error as TypeError).cause as Error).message).toBe(
      '127.0.0.1 is a loopback address; this server does not send requests to private networks (set OUTBOUND_ALLOW_PRIVATE=true to allow them).',
    );
    expect(received.length).toBe(before);
  });

  it('refuses a host name that resolves to a loopback address, at connect time', async () => {
    const { fetch, close } = createOutboundFetch({ allowPrivate: false });
    const before = received.length;
    const error = await fetch(`http://localhost:${port}/`, { method: 'GET' }).catch(
      (e: unknown) => e,
    );
    await close();
    expect((error as TypeError).cause).toBeInstanceOf(OutboundAddressRefused);
    expect(((error as TypeError).cause as Error).message).toMatch(
      /^localhost is at (127\.0\.0\.1|::1), a loopback address;/,
    );
    expect(received.length).toBe(before);
  });

  it('reaches the private network when the operator allows it (OUTBOUND_ALLOW_PRIVATE=true)', async () => {
    const { fetch, close } = createOutboundFetch({ allowPrivate: true });
    const response = await fetch(`http://127.0.0.1:${port}/allowed`, { method: 'GET' });
    await close();
    expect(await response.text()).toBe('ok');
    expect(received).toContain('GET /allowed');
  });
});
