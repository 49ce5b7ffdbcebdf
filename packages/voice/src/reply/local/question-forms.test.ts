import { describe, expect, it } from 'vitest';
import { askedPlainly } from './question-forms.js';

describe('askedPlainly', () => {
  it.each([
    ['whereabouts are you', 'where are you'],
    ['whereabouts is the pharmacy', 'where is the pharmacy'],
    ['how do i get to you', 'where you'],
    ['how would we find you', 'where find you'],
    ['how can i get there from the station', 'where from the station'],
    ['which part of town are you in', 'where'],
    ['what road is it on', 'where'],
  ])('reads "%s" as asking where: "%s"', (said, plain) => {
    expect(askedPlainly(said)).toBe(plain);
  });

  it.each([
    ['how late are you open on fridays', 'when late are you open on fridays'],
    ['how early can i ring', 'when early can i ring'],
    ['how late can i come in on a weekday', 'when late are you open on a weekday'],
    ['how early could we get there', 'when early are you open'],
    ['how late can people turn up for a swim', 'when late are you open for a swim'],
    ['what time do you close', 'when time do you close'],
    ['until what time can i call', 'when time can i call'],
    ['which days do you do vaccinations', 'when days do you do vaccinations'],
  ])('reads "%s" as asking when, keeping the words that say which: "%s"', (said, plain) => {
    expect(askedPlainly(said)).toBe(plain);
  });

  it.each([
    'how do i get my test results',
    'how do i find my results online',
    'how can i reach you by phone',
    'how much does a visit cost',
    'what is the address',
    'how long does it take',
    'what are you doing in town',
    'i need a prescription refill',
  ])('leaves "%s" as it is', (said) => {
    expect(askedPlainly(said)).toBe(said);
  });
});
