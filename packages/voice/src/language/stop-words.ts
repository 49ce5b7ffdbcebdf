/**
 * Words that carry no topic. Question words that do ("where", "when") and a few that tell
 * topics apart ("much", "long", "open") are kept.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a an the and or but if then so of at by for with about to from in on into onto up down out
  over off as than i me my mine myself we us our ours you your yours he him his she her it its
  they them their this that these those there here is am are was were be been being do does did
  doing done have has had having will would shall should can could may might must what which
  who whom whose how why please like want wanted need needs just also too very really any some
  all ok okay um uh er erm hmm ah oh well get got know tell let thank thanks yes yeah no not
  maybe something anything hello hi hey sorry one`
    .split(/\s+/)
    .filter((w) => w !== ''),
);
