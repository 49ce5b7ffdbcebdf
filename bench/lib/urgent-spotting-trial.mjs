// Development aid, not a benchmark: would pocketsphinx's keyword spotting (its `kws`
// search) catch emergencies the product's urgent path misses? Our own lines (none from the
// benchmark sets) in five voices go through the product's path (the demo clinic's
// recogniser and local reply engine) and through a keyword spotter of the built-in
// emergency phrases, each phrase's threshold 1e-(k × its phones) for every k in KS.
// Prints the recall and false alarms of each, and of the product and spotter together.
// `KS=1,2,3 node bench/lib/urgent-spotting-trial.mjs` (build first); V=1 lists the lines.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { demo, disposeSpeech, spoken, voice } from './speech.mjs';
import { importBuilt } from './paths.mjs';

const native = await importBuilt('packages/voice/dist/stt/pocketsphinx/native.js');
const { EMERGENCY_PHRASES } = await importBuilt(
  'packages/voice/dist/language/emergency-phrases.js',
);

/** Someone needs help now: our own wording. */
const EMERGENCIES = [
  'my father has chest pain',
  'she is bleeding a lot',
  'he collapsed in the kitchen',
  'my son is having a seizure',
  'my wife can not breathe',
  'he is unconscious and will not wake up',
  'my baby is choking',
  'i think my mother had a stroke',
  'she took an overdose of pills',
  'his face is swollen and he can not swallow',
  'my grandmother fainted',
  'there is a lot of blood',
  'he hit his head really hard',
  'i am having trouble breathing',
  'my husband passed out',
  'she is having an allergic reaction',
  'my chest hurts so much',
  'he has a broken arm',
];
/** Ordinary things to say to a clinic: its own questions and our own lines. */
const ORDINARY = [
  ...demo.knowledgeBase.filter((e) => !e.urgent).flatMap((e) => e.questions),
  'what time do you close on friday',
  'can i bring my daughter with me',
  'is there a bus stop nearby',
  'i want to change my address',
  'do you have a wheelchair ramp',
  'how long is the wait usually',
  'can i pay with a card',
  'my appointment is at ten',
  'i would like to talk to the nurse',
  'is the doctor a woman',
  'do you see children',
  'can you send me a reminder',
  'thank you that is all',
  'yes please',
  'no thanks',
  'i need a sick note for work',
  'where can i get a flu jab',
  'my test results were fine',
  'i have a question about my bill',
].map((t) => t.toLowerCase().replace(/[?.,]/g, ''));
const SPEAKERS = [
  { voice: 'en-us', rate: 165 },
  { voice: 'en-gb', rate: 150 },
  { voice: 'en-us+f3', rate: 185 },
  { engine: 'festival', voice: 'cmu_us_slt_arctic_hts', label: 'slt' },
  { engine: 'festival', voice: 'kal_diphone', label: 'kal' },
];

const api = native.pocketsphinx();
const files = native.modelFiles();
const pronunciations = new Map();
for (const line of fs.readFileSync(files.dictionary, 'utf8').split('\n')) {
  const [word, ...phones] = line.split(/\s+/);
  if (word && !word.includes('(')) pronunciations.set(word, phones.filter(Boolean));
}
const phrases = EMERGENCY_PHRASES.filter((p) => p.split(' ').every((w) => pronunciations.has(w)));
const phoneCount = (p) => p.split(' ').reduce((n, w) => n + pronunciations.get(w).length, 0);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'talkbooth-spotting-'));

const spotters = (process.env.KS ?? '1,2,3,4').split(',').map((k) => {
  const keyfile = path.join(work, `phrases-${k}.txt`);
  const lines = phrases.map((p) => `${p} /1e-${Math.round(Number(k) * phoneCount(p))}/`);
  fs.writeFileSync(keyfile, `${lines.join('\n')}\n`);
  const config = api.parseConfig([
    ...['-hmm', files.acousticModel, '-dict', files.dictionary, '-kws', keyfile],
  ]);
  const ps = api.init(config);
  if (ps === null) throw new Error('could not make the keyword spotter');
  return { k, ps, fe: api.frontEnd(config), recall: 0, alarms: 0, withProduct: [0, 0], lines: [] };
});

/** The phrases a spotter finds in the utterance, from the utterance's own cepstral mean. */
function spot({ ps, fe }, samples) {
  const mean = api.meanCepstrum(fe, samples);
  if (mean) api.restoreStreamState(ps, mean);
  api.startUtt(ps);
  for (let o = 0; o + voice.FRAME_SAMPLES <= samples.length; o += voice.FRAME_SAMPLES)
    api.processRaw(ps, samples.subarray(o, o + voice.FRAME_SAMPLES), false);
  api.endUtt(ps);
  return api.segments(ps).map((s) => s.word);
}

const assistant = {
  model: { provider: 'local', model: 'kb', knowledge: demo.knowledgeBase, intake: demo.intake },
};
const recognizer = await voice.PocketsphinxRecognizer.create({
  vocabulary: voice.vocabularyFor(assistant),
  cacheDir: work,
});
const urgentAnswer = demo.knowledgeBase.find((e) => e.urgent).answer;

/** Whether the product answers the utterance with the urgent entry, and what it heard. */
async function product(samples) {
  const stream = recognizer.open();
  for (let o = 0; o + voice.FRAME_SAMPLES <= samples.length; o += voice.FRAME_SAMPLES)
    stream.push(samples.subarray(o, o + voice.FRAME_SAMPLES));
  const result = stream.finish();
  const engine = new voice.LocalReplyEngine({ assistant });
  const heard = await voice.chosenReading(result, engine, []);
  let reply = '';
  for await (const e of engine.reply([{ role: 'user', content: heard }], AbortSignal.timeout(5000)))
    if (e.type === 'text') reply += e.text;
  return { urgent: reply === urgentAnswer, heard };
}

const base = { recall: 0, alarms: 0, lines: [] };
let emergencies = 0;
let ordinary = 0;
for (const speaker of SPEAKERS) {
  const name = speaker.label ?? speaker.voice;
  for (const [text, urgent] of [
    ...EMERGENCIES.map((t) => [t, true]),
    ...ORDINARY.map((t) => [t, false]),
  ]) {
    const samples = await spoken(text, speaker);
    if (urgent) emergencies += 1;
    else ordinary += 1;
    const p = await product(samples);
    if (p.urgent === urgent) base.recall += urgent ? 1 : 0;
    else base.lines.push(`${name}: "${text}" heard "${p.heard}"`);
    if (p.urgent && !urgent) base.alarms += 1;
    for (const s of spotters) {
      const found = spot(s, samples);
      const fired = found.length > 0;
      if (urgent && fired) s.recall += 1;
      if (!urgent && fired) s.alarms += 1;
      if (fired !== urgent) s.lines.push(`${name}: "${text}" spotted [${found.join(', ')}]`);
      if (fired || p.urgent) s.withProduct[urgent ? 0 : 1] += 1;
    }
  }
}
const of = (n, d) => `${n} of ${d}`;
console.log(
  `product: recall ${of(base.recall, emergencies)}, false alarms ${of(base.alarms, ordinary)}`,
);
if (process.env.V) for (const l of base.lines) console.log(`  ${l}`);
for (const s of spotters) {
  console.log(
    `spotter k=${s.k}: recall ${of(s.recall, emergencies)}, false alarms ${of(s.alarms, ordinary)}; ` +
      `with the product: recall ${of(s.withProduct[0], emergencies)}, false alarms ${of(s.withProduct[1], ordinary)}`,
  );
  if (process.env.V) for (const l of s.lines) console.log(`  ${l}`);
}
recognizer.dispose();
await disposeSpeech();
fs.rmSync(work, { recursive: true, force: true });
