// Recognition quality through the real pipeline: word error rate of what the server heard
// and answer accuracy (the reply came from the expected knowledge-base entry or act), over
// the dev lines in every voice. Reference, same run and same lines: stock pocketsphinx (the
// general US English model alone, no domain model), decoding the same synthesised speech.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { converse, conversationScript } from './lib/conversation.mjs';
import { table } from './lib/markdown.mjs';
import { disposeSpeech, spoken, voice, VOICES, wordErrorRate } from './lib/speech.mjs';
import { startTalkServer } from './lib/talk-server.mjs';

export const title = 'Recognition quality';
export const about =
  'Word error rate (WER) of what the server recognised, and answer accuracy, over the dev lines ' +
  "(knowledge-base questions, the brief trigger, goodbye) and the brief's four answers, each " +
  'spoken by eSpeak NG in three voices over a -55 dBFS noise floor, in real time through the ' +
  'socket. Reference, same run: stock pocketsphinx (general model only) on the same lines. ' +
  'eSpeak is not a person: absolute WER on human callers will differ; the ratio shows what the ' +
  "assistant's own language model buys.";

const pct = (value) => (value === null ? null : `${(value * 100).toFixed(1)} %`);

export async function run({ quick, log }) {
  const server = await startTalkServer({ RATE_LIMIT_EXEMPT_IPS: '127.0.0.1' });
  const speakers = quick ? VOICES.slice(0, 1) : VOICES;
  try {
    const script = conversationScript({ quick });
    const rows = [];
    for (const speaker of speakers) {
      const { turns, record } = await converse(server, speaker, script, log);
      const devTurns = turns.filter((t) => t.expect !== null);
      const answerTurns = turns.filter((t) => t.expect === null && t.said !== 'yes');
      const reference = await stockRecogniserWer(
        speaker,
        turns.map((t) => t.said),
      );
      rows.push({
        speaker,
        devWer: wordErrorRate(devTurns),
        answerWer: answerTurns.length === 0 ? null : wordErrorRate(answerTurns),
        stockWer: reference,
        accuracy: devTurns.filter((t) => t.correct).length / devTurns.length,
        briefConfirmed: record.analysis?.structuredData?.confirmed ?? null,
        wrong: devTurns
          .filter((t) => !t.correct)
          .map((t) => ({ said: t.said, heard: t.heard, reply: t.reply.slice(0, 80) })),
        turns,
      });
    }
    const markdown = [
      table(
        [
          'voice',
          'rate (wpm)',
          'WER dev lines',
          'WER brief answers',
          'stock pocketsphinx WER (reference)',
          'answer accuracy',
          'brief confirmed',
        ],
        rows.map((r) => [
          r.speaker.voice,
          r.speaker.rate,
          pct(r.devWer),
          pct(r.answerWer),
          pct(r.stockWer),
          pct(r.accuracy),
          r.briefConfirmed === null ? '–' : String(r.briefConfirmed),
        ]),
      ),
      rows
        .flatMap((r) =>
          r.wrong.map(
            (w) =>
              `- ${r.speaker.voice}: said “${w.said}”, heard “${w.heard}”, answered “${w.reply}…”`,
          ),
        )
        .join('\n') || 'Every dev line got its expected answer.',
    ].join('\n\n');
    return {
      summary: rows.map(({ speaker, devWer, answerWer, stockWer, accuracy, briefConfirmed }) => ({
        ...speaker,
        devWer,
        answerWer,
        stockWer,
        accuracy,
        briefConfirmed,
      })),
      markdown,
      details: rows,
    };
  } finally {
    await server.close();
    await disposeSpeech();
  }
}

/** WER of stock pocketsphinx (general model, no domain model) on `lines` in `speaker`'s voice. */
async function stockRecogniserWer(speaker, lines) {
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-bench-lm-'));
  const recognizer = await voice.PocketsphinxRecognizer.create({ cacheDir });
  try {
    let errors = 0;
    let words = 0;
    for (const line of lines) {
      const samples = await spoken(line, speaker);
      const stream = recognizer.open();
      for (
        let offset = 0;
        offset + voice.FRAME_SAMPLES <= samples.length;
        offset += voice.FRAME_SAMPLES
      ) {
        stream.push(samples.subarray(offset, offset + voice.FRAME_SAMPLES));
      }
      const result = voice.wordErrors(line, stream.finish().text);
      errors += result.errors;
      words += result.words;
    }
    return words === 0 ? null : errors / words;
  } finally {
    recognizer.dispose();
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}
