/**
 * The MCP names of other extensions' tools: `<extension id>.<tool>` where that fits, else a bounded
 * head and a hash; always within MCP's pattern, stable, never one of ours, one tool per name, and
 * mapped back to the tool it stands for.
 */
import * as assert from 'node:assert/strict';
import {
  ExtensionTool,
  ExtensionToolNames,
  extensionToolMcpName,
  MCP_TOOL_NAME,
} from '../../src/mcp/extensionToolNames';
import { extensionToolAnnotations } from '../../src/mcp/toolAnnotations';
import { TOOL_CATALOG } from '../../src/tools/declarations';
import { seededRandom } from '../support/seededRandom';

const OURS = TOOL_CATALOG.map((declaration) => declaration.name as string);

describe("MCP names of other extensions' tools", () => {
  it('read <extension id>.<tool> when that fits, the id in lower case as the editor writes it', () => {
    const table: Array<[ExtensionTool, string]> = [
      [
        { extensionId: 'agent-live-tools-test.scripted-model', name: 'scripted_tagged_read' },
        'agent-live-tools-test.scripted-model.scripted_tagged_read',
      ],
      [{ extensionId: 'GitHub.Copilot-Chat', name: 'run-tests' }, 'github.copilot-chat.run-tests'],
      [
        { extensionId: 'ms-python.python', name: 'getPythonEnvironmentInfo' },
        'ms-python.python.getPythonEnvironmentInfo',
      ],
    ];
    for (const [tool, expected] of table) assert.equal(extensionToolMcpName(tool), expected);
  });

  it('past 64 characters, or with characters MCP does not take, are a bounded head, `..` and a hash of id and name', () => {
    const long = {
      extensionId: 'a-very-long-publisher-name.an-even-longer-extension-name',
      name: 'and_a_long_tool_name',
    };
    const cases: ExtensionTool[] = [
      long,
      { ...long, name: 'and_a_long_tool_name_2' },
      { extensionId: 'pub.ext', name: 'has space' },
      { extensionId: 'pub.ext', name: 'dotted.name' },
      { extensionId: 'pub.ext', name: 'ünïcode' },
      { extensionId: 'pub.ext', name: '' },
      { extensionId: 'no-dot', name: 'tool' },
      { extensionId: 'pub.ext', name: 'x'.repeat(500) },
    ];
    const names = cases.map(extensionToolMcpName);
    for (const [index, name] of names.entries()) {
      assert.match(name, MCP_TOOL_NAME, JSON.stringify(cases[index]));
      assert.match(name, /\.\.[0-9a-f]{12}$/, name);
      assert.equal(extensionToolMcpName(cases[index]), name, 'the same tool always gets the same name');
    }
    assert.equal(names[0], `a-very-long-publisher-name.an-even-longer-extensio..${names[0].slice(-12)}`);
    assert.equal(names[0].length, 64);
    assert.equal(new Set(names).size, names.length, names.join('\n'));
  });

  it('on random ids and names: within the pattern, one name per tool, never one of ours nor `..` in a plain one', () => {
    const random = seededRandom(37);
    const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-. é/';
    const word = (length: number): string =>
      Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    const seen = new Map<string, string>();
    for (let round = 0; round < 5000; round++) {
      const tool = {
        extensionId: `${word(1 + Math.floor(random() * 20))}.${word(1 + Math.floor(random() * 30))}`,
        name: word(1 + Math.floor(random() * 40)),
      };
      const key = `${tool.extensionId.toLowerCase()}\n${tool.name}`;
      const name = extensionToolMcpName(tool);
      assert.match(name, MCP_TOOL_NAME, key);
      assert.ok(!OURS.includes(name), name);
      assert.ok(name.includes('.'), name);
      // A plain name has three non-empty parts; `..` marks a hashed one.
      if (!/\.\.[0-9a-f]{12}$/.test(name))
        assert.deepEqual(
          name.split('.').map((part) => part.length > 0),
          [true, true, true],
          name,
        );
      const before = seen.get(name);
      assert.ok(before === undefined || before === key, `${name} names both ${before} and ${key}`);
      seen.set(name, key);
    }
  });

  it('map each offered name back to its tool; a name two tools would share is offered for neither', () => {
    const weather = { extensionId: 'pub.weather', name: 'forecast', title: 'Forecast' };
    const notes = { extensionId: 'pub.notes', name: 'forecast', title: 'Notes forecast' };
    const twice = { extensionId: 'pub.twice', name: 'tool', title: 'first' };
    const names = new ExtensionToolNames([
      weather,
      twice,
      notes,
      { ...twice, title: 'second' },
      { ...twice, title: 'third' },
    ]);
    assert.deepEqual(
      names.entries().map(({ mcpName, tool }) => [mcpName, tool.title]),
      [
        ['pub.weather.forecast', 'Forecast'],
        ['pub.notes.forecast', 'Notes forecast'],
      ],
    );
    assert.equal(names.toolOf('pub.notes.forecast'), notes);
    assert.equal(names.toolOf('pub.twice.tool'), undefined);
    assert.equal(names.toolOf('forecast'), undefined, 'never by its bare name');
  });

  it('are described as exec tools: not read-only, may destroy, reach beyond the workspace', () => {
    assert.deepEqual(extensionToolAnnotations('Forecast (Weather)'), {
      title: 'Forecast (Weather)',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
  });
});
