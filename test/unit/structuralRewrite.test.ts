/**
 * Rewrites keep the code whole: the matched node's tokens a pattern did not write stay.
 */
import * as assert from 'node:assert/strict';
import { matchesIn, rewritten } from './support/structuralEngine';

describe('structural rewrite: what a rewrite replaces', () => {
  it('a $$$ run takes the tokens after it, as in ast-grep, so writing the run keeps them', async () => {
    const [match] = await matchesIn('typescript', 'f($$$A)', 'f(x,);');
    assert.equal(match.captures.get('A')?.text, 'x,');
    assert.equal(await rewritten('typescript', 'f($$$A)', 'g($$$A)', 'f(x,);\nf(a, b,);\n'), 'g(x,);\ng(a, b,);\n');
    assert.equal(
      await rewritten(
        'typescript',
        'class $C { $$$B }',
        'class $C extends Base {\n  $$$B\n}',
        'class A {\n  x = 1;\n  y = 2;\n}\n',
      ),
      'class A extends Base {\n  x = 1;\n  y = 2;\n}\n',
    );
  });
});
