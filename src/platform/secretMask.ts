/**
 * Credentials kept out of what a model reads: values in debugger answers and kernel output that look
 * like secrets are replaced by `«secret: N characters»`. The built-in patterns are each linear in the
 * text (no nested quantifiers); the user may add patterns (`liveTools.secrets.patterns`) or turn masking
 * off (`liveTools.secrets.mask`), in their own settings only.
 */

export interface SecretPattern {
  readonly name: string;
  /** Global. With two groups, the first is kept (a key name, `Bearer `) and the second masked. */
  readonly regex: RegExp;
  /** When set, a match is masked only if it passes (a shape the regex alone would check by backtracking). */
  readonly shape?: RegExp;
}

/**
 * A JSON Web Token: three base64url parts, the first two JSON objects (`eyJ`). Matched as one run of
 * its characters and then checked against the shape: the shape as one pattern over the text backtracks
 * through every run that has no dot (`eyJ-` × 40,000 took 3 s), quadratic in it.
 */
const JWT_SHAPE = /^eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/;

/** The documented list (README "Secrets"); keep the two in step. */
export const SECRET_PATTERNS: readonly SecretPattern[] = [
  {
    name: 'private key block',
    regex: /-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]{0,40}PRIVATE KEY-----|$)/g,
  },
  { name: 'AWS access key id', regex: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { name: 'GitHub token', regex: /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/g },
  { name: 'Slack token', regex: /\bxox[abprs]-[A-Za-z0-9-]{10,200}/g },
  { name: 'JSON Web Token', regex: /\beyJ[A-Za-z0-9_.-]{8,}/g, shape: JWT_SHAPE },
  { name: 'bearer token', regex: /\b(Bearer\s+)([A-Za-z0-9._~+/-]{8,}=*)/gi },
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
  for (const { regex, shape } of patterns) {
    masked = masked.replace(regex, (whole: string, ...groups: unknown[]) => {
      if (shape && !shape.test(whole)) return whole;
      const [kept, secret] = groups;
      if (typeof kept === 'string' && typeof secret === 'string') return `${kept}${maskedSecret(secret)}`;
      return whole.startsWith('«secret:') ? whole : maskedSecret(whole);
    });
  }
  return masked;
}
