import * as assert from 'node:assert/strict';
import { maskSecrets, SECRET_PATTERNS, userSecretPatterns } from '../../src/platform/secretMask';

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

  it('is linear on a long adversarial line', () => {
    const line = 'password='.repeat(20_000) + 'x'.repeat(200_000);
    const started = performance.now();
    maskSecrets(line);
    assert.ok(performance.now() - started < 2000, 'masking took too long');
  });
});
