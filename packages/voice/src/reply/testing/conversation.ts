/**
 * Test helpers for reply engines: the demo clinic as the server seeds it, and a call that
 * keeps the history the way the session does.
 */
import { readFileSync } from 'node:fs';
import type { AssistantDto, Intake, KnowledgeEntry } from '@talkbooth/protocol';
import type { ChatMessage, ReplyEngine } from '../types.js';

/** The demo clinic as the server seeds it (apps/server/src/db/seed/demo-assistant.ts). */
export interface DemoContent {
  assistant: {
    name: string;
    firstMessage: string;
    endCallMessage: string;
    endCallPhrases: string[];
    systemPrompt: string;
  };
  knowledgeBase: KnowledgeEntry[];
  intake: Intake;
}

export const demo = JSON.parse(
  readFileSync(
    new URL('../../../../../apps/server/src/db/seed/demo-clinic.json', import.meta.url),
    'utf8',
  ),
) as DemoContent;

export const demoAssistant: AssistantDto = {
  name: demo.assistant.name,
  firstMessage: demo.assistant.firstMessage,
  endCallMessage: demo.assistant.endCallMessage,
  endCallPhrases: demo.assistant.endCallPhrases,
  model: {
    provider: 'local',
    model: 'knowledge-base',
    messages: [{ role: 'system', content: demo.assistant.systemPrompt }],
    knowledge: demo.knowledgeBase,
    intake: demo.intake,
  },
};

/** The answer of a demo entry. */
export function demoAnswer(id: string): string {
  const entry = demo.knowledgeBase.find((e) => e.id === id);
  if (!entry) throw new Error(`no entry ${id}`);
  return entry.answer;
}

/** A call: the greeting, then each caller line and the engine's whole reply. */
export class Call {
  readonly history: ChatMessage[] = [];
  constructor(readonly engine: ReplyEngine) {
    const greeting = engine.greeting();
    if (greeting !== null) this.history.push({ role: 'assistant', content: greeting });
  }
  async say(text: string): Promise<{ text: string; endCall: boolean; events: number }> {
    this.history.push({ role: 'user', content: text });
    let out = '';
    let endCall = false;
    let events = 0;
    for await (const event of this.engine.reply(this.history, new AbortController().signal)) {
      events++;
      if (event.type === 'text') out += event.text;
      else endCall = true;
    }
    this.history.push({ role: 'assistant', content: out });
    return { text: out, endCall, events };
  }
  async reply(text: string): Promise<string> {
    return (await this.say(text)).text;
  }
}
