import { describe, expect, it } from 'vitest';
import { IntakeFlow } from './intake.js';

const intake = {
  trigger: ['I would like to give a brief', 'take a brief'],
  questions: [
    { id: 'reason', ask: 'What is the main reason for your visit?' },
    { id: 'duration', ask: 'How long have you had these symptoms?' },
    { id: 'allergies', ask: 'Do you have any allergies?' },
  ],
  closing: 'Done.',
};

describe('IntakeFlow', () => {
  it('starts on its trigger phrases, or on all their topic words', () => {
    const flow = new IntakeFlow(intake);
    expect(flow.triggeredBy('i would like to give a brief')).toBe(true);
    expect(flow.triggeredBy('can you take a brief for me')).toBe(true);
    expect(flow.triggeredBy('i want to give you a brief')).toBe(true);
    expect(flow.triggeredBy('what is a brief')).toBe(false);
    expect(new IntakeFlow({ questions: [] }).triggeredBy('take a brief')).toBe(false);
  });

  it('asks in order, reads back, and closes on yes', () => {
    const flow = new IntakeFlow(intake);
    expect(flow.stage).toBe('idle');
    expect(flow.start()).toBe(
      'Sure, I have a few short questions. What is the main reason for your visit?',
    );
    expect(flow.active).toBe(true);
    expect(flow.handle('a cough')).toBe('Okay. How long have you had these symptoms?');
    expect(flow.handle('two days')).toBe('Okay. Do you have any allergies?');
    expect(flow.handle('none')).toBe(
      'Here is your brief: reason, a cough; duration, two days; allergies, none. Is that right?',
    );
    expect(flow.stage).toBe('confirming');
    expect(flow.handle('maybe')).toMatch(/^Please say yes if the brief is right/);
    expect(flow.handle('yes')).toBe('Done.');
    expect(flow.stage).toBe('done');
    expect(flow.confirmed).toBe(true);
    expect(flow.brief()).toEqual({ reason: 'a cough', duration: 'two days', allergies: 'none' });
  });

  it('replaces the last answer on a correction, also at the read-back', () => {
    const flow = new IntakeFlow(intake);
    flow.start();
    // Nothing answered yet: the correction's value is the answer.
    expect(flow.handle('sorry i meant a cough')).toBe(
      'Okay. How long have you had these symptoms?',
    );
    flow.handle('two days');
    expect(flow.handle('no i meant three days')).toBe(
      'Sorry about that, I changed it to three days. Do you have any allergies?',
    );
    flow.handle('pollen');
    expect(flow.handle('sorry i meant pollen and dust')).toMatch(
      /^Sorry about that, I changed it to pollen and dust\. Here is your brief: .*allergies, pollen and dust\. Is that right\?$/,
    );
    // At the read-back, a correction naming another part asks that part again.
    expect(flow.handle('no i meant the reason')).toBe(
      'Okay. What is the main reason for your visit?',
    );
    expect(flow.handle('a bad cough')).toMatch(
      /^Here is your brief: reason, a bad cough; duration, three days;/,
    );
  });

  it('lets the caller pick the part to change by name or by position', () => {
    const flow = new IntakeFlow(intake);
    flow.start();
    for (const a of ['a cough', 'two days', 'none']) flow.handle(a);
    expect(flow.handle('no')).toBe('Which part should I change: reason, duration or allergies?');
    expect(flow.handle('hmm')).toBe('Which part should I change: reason, duration or allergies?');
    expect(flow.handle('the second one')).toBe('Okay. How long have you had these symptoms?');
    expect(flow.handle('a week')).toMatch(/duration, a week;/);
    expect(flow.handle('change how long')).toBe('Okay. How long have you had these symptoms?');
    flow.handle('ten days');
    expect(flow.handle('no')).toMatch(/^Which part/);
    expect(flow.handle('actually it is fine')).toMatch(/^Here is your brief/);
    expect(flow.handle('yes')).toBe('Done.');
  });

  it('pauses and resumes where it stopped, and restarts once done', () => {
    const flow = new IntakeFlow(intake);
    flow.start();
    flow.handle('a cough');
    flow.pause();
    expect(flow.stage).toBe('paused');
    expect(flow.active).toBe(false);
    expect(flow.start()).toBe(
      'Let us go on with your brief. How long have you had these symptoms?',
    );
    flow.handle('two days');
    flow.handle('none');
    flow.pause();
    expect(flow.start()).toMatch(/^Let us go on with your brief\. Here is your brief:/);
    flow.handle('yes');
    expect(flow.start()).toBe(
      'Sure, I have a few short questions. What is the main reason for your visit?',
    );
    expect(flow.answered).toBe(0);
    expect(flow.confirmed).toBe(false);
  });

  it('uses a default closing', () => {
    const flow = new IntakeFlow({ questions: [{ id: 'reason', ask: 'Why?' }] });
    flow.start();
    flow.handle('a cough');
    expect(flow.handle('yes')).toMatch(/^Thank you, the brief is ready/);
  });
});
