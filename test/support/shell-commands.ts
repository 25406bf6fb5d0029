/**
 * The small part of the shell that the README's command blocks use, read as bash reads it, so
 * that a test can run those very commands: commands one per line (a backslash at the end of a
 * line continues it, `#` starts a comment), words in single quotes (literal), double quotes and bare
 * (with `$NAME` / `${NAME}`), pipes, and `NAME=$(...)` assignments. Anything else is refused, so a
 * README using more of the shell fails its test rather than being run wrongly.
 */

export interface Substitution {
  command: string;
}

/** A word: literal text, with at most `$(...)` parts left to run. */
export interface Word {
  parts: (string | Substitution)[];
}

export type Token = Word | '|';

/** The block's commands, as raw text (continuations joined, comments dropped), in order. */
export function splitCommands(block: string): string[] {
  const commands: string[] = [];
  let current = '';
  let quote: "'" | '"' | null = null;
  let depth = 0;
  let atWordStart = true;
  for (let i = 0; i < block.length; i++) {
    const c = block[i]!;
    if (quote) {
      current += c;
      if (c === '\\' && quote === '"') current += block[++i] ?? '';
      else if (c === quote) quote = null;
      atWordStart = false;
      continue;
    }
    if (c === '\\' && block[i + 1] === '\n') {
      i++;
      current += ' ';
      atWordStart = true;
      continue;
    }
    if (c === '\\') {
      current += c + (block[++i] ?? '');
      atWordStart = false;
      continue;
    }
    if (c === '#' && atWordStart) {
      while (i + 1 < block.length && block[i + 1] !== '\n') i++;
      continue;
    }
    if (c === '\n' && depth === 0) {
      if (current.trim() !== '') commands.push(current.trim());
      current = '';
      atWordStart = true;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    if (c === '$' && block[i + 1] === '(') {
      depth++;
      current += '$(';
      i++;
      atWordStart = true;
      continue;
    }
    if (c === ')' && depth > 0) depth--;
    current += c;
    atWordStart = c === ' ' || c === '\t' || c === '\n' || c === '|' || c === '(';
  }
  if (quote || depth > 0) throw new Error('a command block ends inside a quote or a $(...)');
  if (current.trim() !== '') commands.push(current.trim());
  return commands;
}

/** The words and pipes of one command, `$NAME` expanded from `vars` (a variable used unset is an error). */
export function lex(raw: string, vars: ReadonlyMap<string, string>): Token[] {
  const tokens: Token[] = [];
  let word: Word | null = null;
  let i = 0;
  const push = (part: string | Substitution) => {
    word ??= { parts: [] };
    const last = word.parts.length - 1;
    if (typeof part === 'string' && typeof word.parts[last] === 'string') word.parts[last] += part;
    else word.parts.push(part);
  };
  const end = () => {
    if (word) tokens.push(word);
    word = null;
  };
  const variable = (): string => {
    // raw[i] is '$'
    let name: string;
    if (raw[i + 1] === '{') {
      const close = raw.indexOf('}', i);
      name = raw.slice(i + 2, close);
      i = close + 1;
    } else {
      name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(raw.slice(i + 1))?.[0] ?? '';
      i += 1 + name.length;
    }
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`unsupported $ syntax in: ${raw}`);
    const value = vars.get(name);
    if (value === undefined) throw new Error(`$${name} is used before it is set, in: ${raw}`);
    return value;
  };
  while (i < raw.length) {
    const c = raw[i]!;
    if (c === ' ' || c === '\t' || c === '\n') {
      end();
      i++;
    } else if (c === '|') {
      end();
      tokens.push('|');
      i++;
    } else if (c === "'") {
      const close = raw.indexOf("'", i + 1);
      if (close < 0) throw new Error(`unclosed ' in: ${raw}`);
      push(raw.slice(i + 1, close));
      i = close + 1;
    } else if (c === '"') {
      let text = '';
      i++;
      while (raw[i] !== '"') {
        if (i >= raw.length) throw new Error(`unclosed " in: ${raw}`);
        if (raw[i] === '\\' && '"\\$`'.includes(raw[i + 1] ?? '')) {
          text += raw[i + 1];
          i += 2;
        } else if (raw[i] === '$') {
          if (raw[i + 1] === '(') throw new Error(`$(...) inside double quotes is not supported: ${raw}`);
          text += variable();
        } else if (raw[i] === '`') {
          throw new Error(`backquotes are not supported: ${raw}`);
        } else {
          text += raw[i++];
        }
      }
      i++;
      push(text);
    } else if (c === '\\') {
      push(raw[i + 1] ?? '');
      i += 2;
    } else if (c === '$' && raw[i + 1] === '(') {
      let depth = 1;
      let j = i + 2;
      let quote: string | null = null;
      for (; j < raw.length && depth > 0; j++) {
        const d = raw[j]!;
        if (quote) {
          if (d === quote) quote = null;
        } else if (d === "'" || d === '"') quote = d;
        else if (d === '(') depth++;
        else if (d === ')') depth--;
      }
      if (depth > 0) throw new Error(`unclosed $( in: ${raw}`);
      push({ command: raw.slice(i + 2, j - 1).trim() });
      i = j;
    } else if (c === '$') {
      push(variable());
    } else if (';&<>`(){}*?[]~'.includes(c)) {
      throw new Error(`unsupported shell syntax "${c}" in: ${raw}`);
    } else {
      push(c);
      i++;
    }
  }
  end();
  return tokens;
}

/** A word without substitution, as text. */
export function text(word: Word): string {
  return word.parts
    .map((part) => {
      if (typeof part !== 'string') throw new Error(`$(${part.command}) is only supported as NAME=$(...)`);
      return part;
    })
    .join('');
}
