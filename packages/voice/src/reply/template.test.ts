import { describe, expect, it } from 'vitest';
import { fillTemplate, greetingOf } from './template.js';

describe('fillTemplate', () => {
  it('fills variables, nested ones too', () => {
    expect(fillTemplate('Hello {{name}}, welcome.', { name: 'Alex' })).toBe('Hello Alex, welcome.');
    expect(fillTemplate('Hi {{ customer.name }}!', { customer: { name: 'Jo' } })).toBe('Hi Jo!');
    expect(fillTemplate('{{n}} items', { n: 3 })).toBe('3 items');
  });

  it('drops unknown variables and tidies what they leave', () => {
    expect(fillTemplate('Hello {{name}}, this is the clinic.')).toBe('Hello, this is the clinic.');
    expect(fillTemplate('Hi {{name}}!')).toBe('Hi!');
    expect(fillTemplate('Dear {{title}} {{name}}, hello')).toBe('Dear, hello');
    expect(fillTemplate('{{name}}, welcome back.')).toBe('Welcome back.');
    expect(fillTemplate('Hello, {{name}}.')).toBe('Hello.');
    expect(fillTemplate('Hello ({{name}}) there')).toBe('Hello there');
    expect(fillTemplate('Hello {{name}}', { name: '  ' })).toBe('Hello');
    expect(fillTemplate('Hello {{who}}', { who: { an: 'object' } })).toBe('Hello');
  });

  it('never leaves braces to be spoken', () => {
    expect(fillTemplate('Hello {{ broken and {{name}} }}', { name: 'A' })).not.toMatch(/[{}]{2}/);
    expect(fillTemplate('Hello {{}} there')).toBe('Hello there');
  });

  it('takes a default filter', () => {
    expect(fillTemplate("Hello {{name | default: 'there'}}.")).toBe('Hello there.');
    expect(fillTemplate("Hello {{name | default: 'there'}}.", { name: 'Sam' })).toBe('Hello Sam.');
  });

  it('makes the greeting, or none', () => {
    expect(greetingOf(undefined)).toBeNull();
    expect(greetingOf('{{name}}')).toBeNull();
    expect(greetingOf('Hi {{name}}', { name: 'Ann' })).toBe('Hi Ann');
  });
});
