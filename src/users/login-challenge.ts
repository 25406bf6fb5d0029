import { randomInt } from 'node:crypto';

/**
 * The self-hosted challenge a throttled address must solve before its next log-in attempt: a
 * small sum written in words, readable by a person without any script, generated and checked on
 * the server (no third-party service). Pure apart from the random draw.
 */
export interface Challenge {
  question: string;
  answer: string;
}

const words = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
];

export function drawChallenge(draw: (min: number, max: number) => number = randomInt): Challenge {
  const a = draw(2, 21);
  const b = draw(2, 21);
  if (draw(0, 2) === 0 && a !== b) {
    const [big, small] = a > b ? [a, b] : [b, a];
    return { question: `What is ${words[big]} minus ${words[small]}?`, answer: String(big - small) };
  }
  return { question: `What is ${words[a]} plus ${words[b]}?`, answer: String(a + b) };
}

/** Accepts the answer in digits, with surrounding spaces. */
export function isCorrectAnswer(given: string | undefined, answer: string): boolean {
  return given !== undefined && given.trim() === answer;
}
