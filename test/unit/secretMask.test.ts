import * as assert from 'node:assert/strict';
import { maskedSecret, maskSecrets, SECRET_PATTERNS, userSecretPatterns } from '../../src/platform/secretMask';
import { evaluateAnswer, variablesAnswer } from '../../src/debug/answers';
import { assertLinear } from './support/growth';

describe('secret masking', () => {
  it('masks each documented kind with its length and keeps what names it', () => {
    const cases: [string, string][] = [
      ["key = 'AKIAIOSFODNN7EXAMPLE'", "key = '«secret: 20 characters»'"],
      ['Authorization: Bearer abc.def-ghi_jkl', 'Authorization: Bearer «secret: 15 characters»'],
      [
        'aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
        'aws_secret_access_key=«secret: 40 characters»',
      ],
      ['{"password": "hunter22"}', '{"password": "«secret: 8 characters»"}'],
      ['TOKEN=ghp_' + 'a'.repeat(36), 'TOKEN=«secret: 40 characters»'],
      ['slack xoxb-1234567890-abcdefghij', 'slack «secret: 26 characters»'],
      [
        '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----\nafter',
        '«secret: 68 characters»\nafter',
      ],
    ];
    for (const [text, expected] of cases) assert.equal(maskSecrets(text), expected, text);
  });

  it('masks a credential in every form the debug answers print: a typed variable, a dict key, an object preview, an evaluated expression', () => {
    const listed = maskSecrets(
      variablesAnswer([
        { name: 'db_password', value: "'Sup3rS3cretValue'", type: 'str', variablesReference: 0 },
        { name: "'password'", value: "'Hunter2Hunter2'", type: 'str', variablesReference: 0 },
        { name: 'config', value: "{'api_key': 'k3y-v4lue-1', 'user': 'ada'}", type: 'dict', variablesReference: 7 },
        { name: 'options', value: "{token: 'tok-123456', retries: 3}", type: 'Object', variablesReference: 8 },
      ]),
    );
    assert.equal(
      listed,
      [
        '4 variables:',
        "- db_password = '«secret: 16 characters»' (str)",
        "- 'password' = '«secret: 14 characters»' (str)",
        "- config = {'api_key': '«secret: 11 characters»', 'user': 'ada'} (dict) [reference 7]",
        "- options = {token: '«secret: 10 characters»', retries: 3} (Object) [reference 8]",
      ].join('\n'),
    );
    // A quoted value is masked to its closing quote: spaces, commas, a bytes literal.
    for (const [value, length] of [
      ["'correct horse battery staple'", 28],
      ["'ab,cdefgh'", 9],
      ["b'Sup3rS3cret'", 11],
      ['r"Sup3r S3cret"', 12],
      // The other quote inside, and an escaped one: the value runs to the same quote that opened it.
      [`"p@ss'w0rd!S3cret"`, 16],
      [`"ab\\"cdeS3cret"`, 13],
    ] as const) {
      const masked = maskSecrets(variablesAnswer([{ name: 'password', value, type: 'str', variablesReference: 0 }]));
      assert.ok(masked.includes(`«secret: ${length} characters»`) && !/S3cret|horse|cdefgh|w0rd/.test(masked), masked);
    }
    for (const expression of ['db_password', 'config["password"]', "config['password']", 'settings.client_secret']) {
      assert.equal(
        maskSecrets(evaluateAnswer(expression, { result: "'Sup3rS3cretValue'", type: 'str' })),
        `${expression} = '«secret: 16 characters»' (str)`,
      );
    }
  });

  it('leaves ordinary values alone and never masks a mask again', () => {
    for (const text of ['count = 42', 'passwords: 3 rows', 'the token is short: ab', 'Bearer', 'AKIA-not-a-key']) {
      assert.equal(maskSecrets(text), text);
    }
    const once = maskSecrets('token = AKIAIOSFODNN7EXAMPLE');
    assert.equal(once, 'token = «secret: 20 characters»');
    assert.equal(maskSecrets(once), once);
  });

  it("the user's patterns add to the list; an invalid one is named and left out", () => {
    const { patterns, invalid } = userSecretPatterns(['(internal-id: )(\\d{6})', '(']);
    assert.deepEqual(invalid, ['(']);
    assert.equal(
      maskSecrets('internal-id: 123456 and token=abcdef', [...SECRET_PATTERNS, ...patterns]),
      'internal-id: «secret: 6 characters» and token=«secret: 6 characters»',
    );
  });

  it('is linear on runs of what starts a JSON Web Token but never has its dots', () => {
    assertLinear(
      'eyJ- × n',
      (size) => {
        const text = 'eyJ-'.repeat(size);
        assert.equal(maskSecrets(text), text);
      },
      20_000,
    );
    // A real one is still masked, whole; also where it follows other dotted parts in one run.
    const token = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${'s'.repeat(43)}`;
    assert.equal(maskSecrets(`jwt ${token} end`), `jwt ${maskedSecret(token)} end`);
    assert.equal(
      maskSecrets(`id=eyJ0eXAiOiJ4In0.c2Vzc2lvbg.${token}`),
      `id=eyJ0eXAiOiJ4In0.c2Vzc2lvbg.${maskedSecret(token)}`,
    );
    assert.equal(maskSecrets(`${token}.${token}`), `${maskedSecret(token)}.${maskedSecret(token)}`);
  });

  it('is linear on a long adversarial line', () => {
    const line = 'password='.repeat(20_000) + 'x'.repeat(200_000);
    const started = performance.now();
    maskSecrets(line);
    assert.ok(performance.now() - started < 2000, 'masking took too long');
  });
});
