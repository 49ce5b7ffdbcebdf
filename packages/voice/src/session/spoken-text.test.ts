import { describe, expect, it } from 'vitest';
import { SpokenText } from './spoken-text.js';

describe('SpokenText', () => {
  const text = () => {
    const spoken = new SpokenText();
    spoken.begin('We are open on weekdays.', 0);
    spoken.extend(1000);
    spoken.begin('On Saturday we open at nine and close at one.', 1000);
    spoken.extend(3000);
    return spoken;
  };

  it('keeps whole sentences played and the share of words of the one playing', () => {
    expect(text().heardBy(0)).toBe('');
    expect(text().heardBy(999)).toBe('We are open on');
    expect(text().heardBy(1000)).toBe('We are open on weekdays.');
    expect(text().heardBy(2000)).toBe('We are open on weekdays. On Saturday we open at');
    expect(text().heardBy(5000)).toBe(text().full);
  });
});
