import { afterEach, describe, expect, it } from 'vitest';
import { BOOT_DATA_ID, readBootData } from './boot-data';

const CONFIG = {
  product: 'medibrief',
  productName: 'Riverside Clinic',
  talkHomeUrl: '/',
  platformBaseUrl: 'http://localhost:3000/platform',
  platformPublicKey: null,
};

function pageWith(text: string | null): void {
  document.body.innerHTML = '<div id="root"></div>';
  if (text === null) return;
  const script = document.createElement('script');
  script.id = BOOT_DATA_ID;
  script.type = 'application/json';
  script.textContent = text;
  document.body.append(script);
}

describe('readBootData', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('reads the configuration and talk documents the server put in the page', () => {
    const talkDocuments = [{ id: 'product', title: 'Riverside Clinic', tagline: 'Care' }];
    pageWith(JSON.stringify({ config: CONFIG, talkDocuments }));
    expect(readBootData()).toEqual({ config: CONFIG, talkDocuments });
  });

  it.each([
    ['no block', null],
    ['an empty block', ''],
    ['broken JSON', '{"config":'],
    ['not an object', '[1,2]'],
    [
      'a configuration missing a field',
      JSON.stringify({ config: { product: 'x' }, talkDocuments: [] }),
    ],
    ['documents that are not a list', JSON.stringify({ config: CONFIG, talkDocuments: {} })],
    [
      'a document without an id',
      JSON.stringify({ config: CONFIG, talkDocuments: [{ title: 'x' }] }),
    ],
  ])('answers null for %s, so the page fetches the answers itself', (_what, text) => {
    pageWith(text);
    expect(readBootData()).toBeNull();
  });
});
