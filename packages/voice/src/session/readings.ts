/**
 * Which reading of the caller's words a call answers: the recogniser's best, one of its
 * alternatives, for an emergency only one of its N-best hypotheses, or a second
 * recogniser's reading (an emergency, or a question it heard that the first's best reading
 * could not answer); the reply engine decides (`ReplyEngine.choose`).
 */
import type { ChatMessage, ReplyEngine } from '../reply/types.js';
import type { RecognitionResult } from '../stt/types.js';

function clean(list: readonly string[] | undefined): string[] {
  return (list ?? []).map((t) => t.trim()).filter((t) => t !== '');
}

/**
 * The reading to record and answer ('' when the recogniser heard no words). The engine
 * readies the readings first (`ReplyEngine.prepareReadings`); if that fails, it chooses
 * without what it would have readied. If choosing fails, the recogniser's best reading is
 * answered, and `failed` hears why: the turn is not lost for a fault in weighing it.
 */
export async function chosenReading(
  result: RecognitionResult,
  reply: Pick<ReplyEngine, 'choose' | 'prepareReadings'>,
  history: readonly ChatMessage[],
  failed: (error: unknown) => void = () => undefined,
): Promise<string> {
  const readings = clean([result.text, ...(result.alternatives ?? [])]);
  const hypotheses = clean(result.hypotheses);
  const all = [...readings, ...hypotheses, ...clean(result.secondOpinion)];
  if (readings.length === 0 || all.length === 1 || !reply.choose) return readings[0] ?? '';
  const independentFrom = readings.length + hypotheses.length;
  try {
    await reply.prepareReadings?.(all, readings.length, independentFrom);
  } catch {
    // Chosen by the words alone: the turn is not lost for want of their meaning.
  }
  let chosen: number;
  try {
    chosen = reply.choose(all, history, readings.length, independentFrom);
  } catch (error) {
    failed(error);
    return readings[0] ?? '';
  }
  return all[chosen] ?? readings[0] ?? '';
}
