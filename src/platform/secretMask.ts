/**
 * Credentials kept out of what a model reads: values in debugger answers and kernel output that look
 * like secrets are replaced by `«secret: N characters»`. The built-in patterns are each linear in the
 * text (no nested quantifiers); the user may add patterns (`liveTools.secrets.patterns`) or turn masking
 * off (`liveTools.secrets.mask`), in their own settings only.
 */

export interface SecretPattern {
  readonly name: string;
  /** Global. With two groups (or groups named `kept` and `secret`), the first is kept (a key name, `Bearer `) and the second masked. */
  readonly regex: RegExp;
  /** When set, what a match becomes (the secrets it holds masked, the rest kept), in place of masking it whole. */
  readonly within?: (match: string) => string;
}

const BASE64URL_PART = 8;

/**
 * The JSON Web Tokens in a run of their characters (base64url and dots): three base64url parts of 8
 * or more, the first two JSON objects (`eyJ`), each starting where a word does (the run's start, or
 * after `.` or `-`). Found with each part's end looked up, never by a pattern over the run: one as a
 * pattern backtracks through every `eyJ` of a run without dots (`eyJ-` × 40,000 took 3 s). Linear.
 */
function maskJwts(run: string): string {
  // Where the part holding each position ends (the next dot, or the run's end).
  const partEnd = new Int32Array(run.length + 1);
  partEnd[run.length] = run.length;
  for (let at = run.length - 1; at >= 0; at--) partEnd[at] = run[at] === '.' ? at : partEnd[at + 1];
  let out = '';
  let kept = 0;
  for (let at = run.indexOf('eyJ'); at !== -1; at = run.indexOf('eyJ', at + 1)) {
    if (at < kept || (at > 0 && run[at - 1] !== '.' && run[at - 1] !== '-')) continue;
    const first = partEnd[at];
    if (first - at < 3 + BASE64URL_PART || first === run.length || !run.startsWith('eyJ', first + 1)) continue;
    const second = partEnd[first + 1];
    if (second - first - 1 < 3 + BASE64URL_PART || second === run.length) continue;
    const third = partEnd[second + 1];
    if (third - second - 1 < BASE64URL_PART) continue;
    out += `${run.slice(kept, at)}${maskedSecret(run.slice(at, third))}`;
    kept = third;
  }
  return kept === 0 ? run : out + run.slice(kept);
}

/** The documented list (README "Secrets"); keep the two in step. */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    name: 'private key block',
    regex: /-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]{0,40}PRIVATE KEY-----|$)/g,
  },
  { name: 'AWS access key id', regex: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { name: 'GitHub token', regex: /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/g },
  { name: 'Slack token', regex: /\bxox[abprs]-[A-Za-z0-9-]{10,200}/g },
  { name: 'JSON Web Token', regex: /\beyJ[A-Za-z0-9_.-]{8,}/g, within: maskJwts },
  { name: 'bearer token', regex: /\b(Bearer\s+)([A-Za-z0-9._~+/-]{8,}=*)/gi },
  {
    // A quoted value is masked to its closing quote (the same quote; escapes, spaces and commas inside; a
    // bytes or raw literal: b'…', r"…"). Each step takes one character or one escape: no backtracking.
    name: 'credential assignment, quoted',
    regex:
      /\b(?<kept>[A-Za-z_]{0,30}(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|auth)[A-Za-z_]{0,30}["']?\]?\s{0,3}[:=]\s{0,3}(?:[bBrRuUfF]{1,2})?(?<quote>["']))(?<secret>(?!bearer\s)(?:(?!\k<quote>)[^\\\n«]|\\.){4,})/gi,
  },
  {
    name: 'credential assignment',
    regex:
      /\b([A-Za-z_]{0,30}(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|auth)[A-Za-z_]{0,30}["']?\]?\s{0,3}[:=]\s{0,3}["']?)((?!bearer\s)[^\s"',;«]{4,})/gi,
  },
];

export function maskedSecret(secret: string): string {
  return `«secret: ${secret.length} characters»`;
}

/** Builds the user's extra patterns; those that are not valid regular expressions are returned by text. */
export function userSecretPatterns(sources: readonly string[]): { patterns: SecretPattern[]; invalid: string[] } {
  const patterns: SecretPattern[] = [];
  const invalid: string[] = [];
  for (const source of sources) {
    try {
      patterns.push({ name: 'user pattern', regex: new RegExp(source, 'g') });
    } catch {
      invalid.push(source);
    }
  }
  return { patterns, invalid };
}

/** `text` with every match of `patterns` masked (the second group where a pattern has two). */
export function maskSecrets(text: string, patterns: readonly SecretPattern[] = SECRET_PATTERNS): string {
  let masked = text;
  for (const { regex, within } of patterns) {
    masked = masked.replace(regex, (whole: string, ...groups: unknown[]) => {
      if (within) return within(whole);
      // Named groups (`kept`, `secret`) where a pattern has them, else the first two.
      const named = groups.at(-1);
      const [kept, secret] =
        typeof named === 'object' && named !== null && 'secret' in named
          ? [(named as Record<string, string>).kept, (named as Record<string, string>).secret]
          : groups;
      if (typeof kept === 'string' && typeof secret === 'string') return `${kept}${maskedSecret(secret)}`;
      return whole.startsWith('«secret:') ? whole : maskedSecret(whole);
    });
  }
  return masked;
}
