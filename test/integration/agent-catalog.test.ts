import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { agentDefinition, ALIAS_BOMB, dataDirWithAgents } from '../support/agent-kit';
import { until } from '../support/durable-kit';
import { openHost, type HostFixture } from '../support/host-fixture';
import { ODD_SERVER, putServer, stdio } from '../support/mcp-kit';
import { ScriptedModel } from '../support/scripted-model';

let fixture: HostFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const BROKEN = `name: broken_one
description: Has a bad line.
inputConfig:
  inputs: {}
outputConfig:
  outputName: result
  description: d
  schema: {}
promptConfig:
  query: go
  systemPrompt: s
toolConfig:
  tools: list_tasks
`;

describe('the agent catalog', () => {
  it('skips a bad file, lists it with its line, and keeps every other agent', async () => {
    const dataDir = dataDirWithAgents({ name: 'good_one', tools: ['list_tasks'] });
    writeFileSync(join(dataDir, 'agents', 'broken_one.yaml'), BROKEN);
    fixture = await openHost(new ScriptedModel(), { dataDir });
    const list = await fixture.host.invoke('agents.list', {});
    expect(list.agents.map((agent) => agent.name)).toContain('good_one');
    expect(list.agents.map((agent) => agent.name)).not.toContain('broken_one');
    expect(list.errors).toEqual([expect.objectContaining({ file: 'agents/broken_one.yaml', line: 13 })]);
    expect(list.folder).toBe('agents');
    expect(fixture.host.toolCatalog().map((tool) => tool.name)).toContain('good_one');
  });

  it('loads an agent that lists a tool Deputy does not have, and names the tool in the list', async () => {
    const dataDir = dataDirWithAgents(
      { name: 'sloppy', tools: ['list_taskz', 'list_tasks', 'helper', 'complete_task', 'ext__search'] },
      { name: 'helper', tools: [] },
    );
    fixture = await openHost(new ScriptedModel(), { dataDir });
    await fixture.host.invoke('agents.setEnabled', { name: 'helper', enabled: false });
    const list = await fixture.host.invoke('agents.list', {});
    // A typo and an extension's tool not connected: named; a tool, another agent (even off), a control tool: not.
    expect(list.agents.find((agent) => agent.name === 'sloppy')?.unknownTools).toEqual([
      'list_taskz',
      'ext__search',
    ]);
    expect(list.agents.find((agent) => agent.name === 'researcher')?.unknownTools).toEqual([]);
    expect(list.errors).toEqual([]);
    const one = await fixture.host.invoke('agents.get', { name: 'sloppy' });
    expect(one.agent.unknownTools).toEqual(['list_taskz', 'ext__search']);
  });

  it('starts with an alias bomb in the folder: the file is listed as not loaded, every other agent loads', async () => {
    const dataDir = dataDirWithAgents({ name: 'good_one', tools: ['list_tasks'] });
    writeFileSync(join(dataDir, 'agents', 'bomb.yaml'), ALIAS_BOMB);
    fixture = await openHost(new ScriptedModel(), { dataDir });
    const list = await fixture.host.invoke('agents.list', {});
    expect(list.agents.map((agent) => agent.name)).toEqual(
      expect.arrayContaining(['good_one', 'researcher']),
    );
    expect(list.errors).toEqual([
      { file: 'agents/bomb.yaml', line: 2, message: expect.stringContaining('alias') },
    ]);
  });

  it('an alias bomb dropped in while running is skipped, and the agents already there stay', async () => {
    const dataDir = dataDirWithAgents({ name: 'good_one', tools: ['list_tasks'] });
    fixture = await openHost(new ScriptedModel(), { dataDir });
    const host = fixture.host;
    writeFileSync(join(dataDir, 'agents', 'bomb.yaml'), ALIAS_BOMB);
    writeFileSync(
      join(dataDir, 'agents', 'late_one.yaml'),
      stringify(agentDefinition({ name: 'late_one', tools: [] })),
    );
    await until(() => host.toolCatalog().some((tool) => tool.name === 'late_one'));
    const list = await host.invoke('agents.list', {});
    expect(list.errors).toEqual([expect.objectContaining({ file: 'agents/bomb.yaml' })]);
    expect(list.agents.map((agent) => agent.name)).toEqual(expect.arrayContaining(['good_one', 'late_one']));
  });

  it('refuses to import an alias bomb, as YAML or as Markdown front matter, as invalid input', async () => {
    fixture = await openHost(new ScriptedModel(), { dataDir: dataDirWithAgents() });
    const host = fixture.host;
    for (const input of [
      { fileName: 'bomb.yaml', text: ALIAS_BOMB },
      { fileName: 'bomb.md', text: `---\n${ALIAS_BOMB}---\nYou are a bomb.\n` },
    ])
      await expect(host.invoke('agents.import', input)).rejects.toMatchObject({
        code: 'invalid_input',
        message: expect.stringContaining('alias'),
      });
    expect((await host.invoke('agents.list', {})).errors).toEqual([]);
  });

  it('watches the folder: a new file becomes an agent and a tool without a restart', async () => {
    const dataDir = dataDirWithAgents();
    fixture = await openHost(new ScriptedModel(), { dataDir });
    const host = fixture.host;
    // Windows showing the agents hear of the change (and read the list again), once the tools are current.
    const heard: boolean[] = [];
    const unsubscribe = host.subscribe('agents.changed', {}, () =>
      heard.push(host.toolCatalog().some((tool) => tool.name === 'late_one')),
    );
    writeFileSync(
      join(dataDir, 'agents', 'late_one.yaml'),
      stringify(agentDefinition({ name: 'late_one', tools: [] })),
    );
    await until(() => heard.length > 0);
    unsubscribe();
    expect(heard[0]).toBe(true);
    const list = await host.invoke('agents.list', {});
    expect(list.agents.find((agent) => agent.name === 'late_one')).toMatchObject({
      source: 'user',
      enabled: true,
    });
  });

  it('two files of the person’s with one agent name: neither is used, each is listed naming the other', async () => {
    const dataDir = dataDirWithAgents({ name: 'helper', tools: [] });
    // Each file's name: line is further down than its first line: that is the line each error names.
    const twin = `# My twin\n${stringify({ description: 'Twin.', ...agentDefinition({ name: 'twin', tools: ['list_tasks'] }) })}`;
    writeFileSync(join(dataDir, 'agents', 'twin-a.yaml'), twin);
    writeFileSync(
      join(dataDir, 'agents', 'twin-b.json'),
      JSON.stringify(
        { description: 'Twin.', displayName: 'Twin B', ...agentDefinition({ name: 'twin', tools: [] }) },
        null,
        2,
      ),
    );
    fixture = await openHost(new ScriptedModel(), { dataDir });
    const host = fixture.host;
    const list = await host.invoke('agents.list', {});
    expect(list.agents.map((agent) => agent.name)).not.toContain('twin');
    expect(list.agents.map((agent) => agent.name)).toContain('helper');
    expect(list.errors).toEqual([
      {
        file: 'agents/twin-a.yaml',
        line: 3,
        message:
          'agents/twin-b.json also names an agent “twin”, so neither file is used: give one of them another name, or remove one.',
      },
      {
        file: 'agents/twin-b.json',
        line: 4,
        message:
          'agents/twin-a.yaml also names an agent “twin”, so neither file is used: give one of them another name, or remove one.',
      },
    ]);
    expect(host.toolCatalog().map((tool) => tool.name)).not.toContain('twin');
    await expect(host.invoke('agents.run', { name: 'twin', inputs: { task: 't' } })).rejects.toMatchObject({
      code: 'not_found',
    });
    // A third file with the name is refused at import, naming both.
    await expect(host.invoke('agents.import', { fileName: 'twin-c.yaml', text: twin })).rejects.toMatchObject(
      {
        code: 'invalid_input',
        message: 'The name “twin” is already used by agents/twin-a.yaml and agents/twin-b.json. (line 3)',
      },
    );
    // Renaming one settles it: the other is used.
    writeFileSync(
      join(dataDir, 'agents', 'twin-b.json'),
      JSON.stringify(agentDefinition({ name: 'twin_b', tools: [] })),
    );
    await until(() => host.toolCatalog().some((tool) => tool.name === 'twin'));
    const settled = await host.invoke('agents.list', {});
    expect(settled.errors).toEqual([]);
    expect(settled.agents.find((agent) => agent.name === 'twin')).toMatchObject({
      file: 'agents/twin-a.yaml',
    });
  });

  it('three files with one name each name the other two', async () => {
    const dataDir = dataDirWithAgents();
    for (const file of ['a', 'b', 'c'])
      writeFileSync(
        join(dataDir, 'agents', `${file}.yaml`),
        stringify(agentDefinition({ name: 'trio', tools: [] })),
      );
    fixture = await openHost(new ScriptedModel(), { dataDir });
    const { errors } = await fixture.host.invoke('agents.list', {});
    expect(errors.map((error) => `${error.file}: ${error.message}`)).toEqual([
      'agents/a.yaml: agents/b.yaml and agents/c.yaml also name an agent “trio”, so none of these 3 files is used: keep the name in one of them, and give the others other names or remove them.',
      'agents/b.yaml: agents/a.yaml and agents/c.yaml also name an agent “trio”, so none of these 3 files is used: keep the name in one of them, and give the others other names or remove them.',
      'agents/c.yaml: agents/a.yaml and agents/b.yaml also name an agent “trio”, so none of these 3 files is used: keep the name in one of them, and give the others other names or remove them.',
    ]);
  });

  it('a file of the person’s with a built-in’s name: the built-in is used, and both files say so', async () => {
    const dataDir = dataDirWithAgents();
    writeFileSync(
      join(dataDir, 'agents', 'my-researcher.yaml'),
      stringify({
        description: 'Mine.',
        displayName: 'My researcher',
        ...agentDefinition({ name: 'researcher', tools: ['list_tasks'] }),
      }),
    );
    fixture = await openHost(new ScriptedModel(), { dataDir });
    const list = await fixture.host.invoke('agents.list', {});
    const researcher = list.agents.find((agent) => agent.name === 'researcher');
    expect(researcher).toMatchObject({
      source: 'builtin',
      file: 'built-in/researcher.yaml',
      sameName: `agents/my-researcher.yaml also names an agent “researcher”; that file is not used, since the name is this built-in agent's.`,
    });
    expect(list.agents.find((agent) => agent.name === 'reviewer')).not.toHaveProperty('sameName');
    expect(list.errors).toEqual([
      {
        file: 'agents/my-researcher.yaml',
        line: 3,
        message:
          'The name “researcher” is already used by the built-in agent in built-in/researcher.yaml, so this file is not used: give its agent another name.',
      },
    ]);
    expect((await fixture.host.invoke('agents.get', { name: 'researcher' })).agent.sameName).toBe(
      researcher?.sameName,
    );
  });

  it('an extension connecting or going away is told on agents.changed, with the unknown tools current', async () => {
    fixture = await openHost(new ScriptedModel(), {
      dataDir: dataDirWithAgents({ name: 'odd_reader', tools: ['odd__garbage', 'list_tasks'] }),
    });
    const host = fixture.host;
    const unknownTools = async () =>
      (await host.invoke('agents.get', { name: 'odd_reader' })).agent.unknownTools;
    expect(await unknownTools()).toEqual(['odd__garbage']);
    // What a window following the stream would read at each word: whether Deputy has the tool then.
    const heard: boolean[] = [];
    const unsubscribe = host.subscribe('agents.changed', {}, () =>
      heard.push(host.toolCatalog().some((tool) => tool.name === 'odd__garbage')),
    );
    await putServer(host, 'odd', stdio(ODD_SERVER));
    await until(() => heard.length === 1);
    expect(heard).toEqual([true]);
    expect(await unknownTools()).toEqual([]);
    // Restarting lists the same tools: nothing the agents show changed, so nothing is told.
    await host.invoke('mcp.restart', { name: 'odd' });
    expect(heard).toEqual([true]);
    await putServer(host, 'odd', { ...stdio(ODD_SERVER), enabled: false });
    await until(() => heard.length === 2);
    expect(heard).toEqual([true, false]);
    expect(await unknownTools()).toEqual(['odd__garbage']);
    await putServer(host, 'odd', stdio(ODD_SERVER));
    await host.invoke('mcp.delete', { name: 'odd' });
    await until(() => heard.length === 4);
    unsubscribe();
    expect(heard).toEqual([true, false, true, false]);
  });

  it('turning an agent off takes its tool away and refuses to run it; on again brings both back', async () => {
    fixture = await openHost(new ScriptedModel(), { dataDir: dataDirWithAgents() });
    const host = fixture.host;
    const off = await host.invoke('agents.setEnabled', { name: 'researcher', enabled: false });
    expect(off.agents.find((agent) => agent.name === 'researcher')?.enabled).toBe(false);
    expect(host.toolCatalog().map((tool) => tool.name)).not.toContain('researcher');
    await expect(
      host.invoke('agents.run', { name: 'researcher', inputs: { question: 'q' } }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    await host.invoke('agents.setEnabled', { name: 'researcher', enabled: true });
    expect(host.toolCatalog().map((tool) => tool.name)).toContain('researcher');
  });

  it('imports a Gemini CLI subagent into the folder as YAML, and refuses a broken one with its line', async () => {
    const dataDir = dataDirWithAgents();
    fixture = await openHost(new ScriptedModel(), { dataDir });
    const host = fixture.host;
    const imported = await host.invoke('agents.import', {
      fileName: 'mail-scout.md',
      text: '---\nname: mail-scout\ndescription: Finds mail.\ntools: [gmail_search, grep]\n---\nYou are Mail Scout.\n',
    });
    expect(imported).toMatchObject({
      agent: {
        name: 'mail_scout',
        source: 'user',
        tools: ['gmail_search'],
        file: 'agents/mail_scout.yaml',
      },
      droppedTools: ['grep'],
    });
    expect(host.toolCatalog().map((tool) => tool.name)).toContain('mail_scout');
    // One with a built-in's name, its name: field on the file's fourth line: refused at that line.
    await expect(
      host.invoke('agents.import', {
        fileName: 'my-researcher.md',
        text: '---\ndescription: Researches.\ntools: []\nname: researcher\n---\nYou research.\n',
      }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: 'The name “researcher” is already used by built-in/researcher.yaml. (line 4)',
    });
    await expect(
      host.invoke('agents.import', { fileName: 'bad.md', text: '---\nname: [\n---\nbody' }),
    ).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringContaining('(line 2)') });
    // A file with several mistakes is refused with each of them, line by line.
    const several = stringify({
      ...agentDefinition({ name: 'several', tools: [], modelConfig: { temp: 'hot' } }),
      description: undefined,
    });
    await expect(
      host.invoke('agents.import', { fileName: 'several.yaml', text: several }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: `This file has 2 mistakes. Line 1: The description is missing: add a line \`description: …\`. Line ${
        several.split('\n').indexOf('  temp: hot') + 1
      }: \`modelConfig.temp\` should be a number, not text.`,
    });
    // Past the eight listed, the count is of all its mistakes: the line saying how many more is not one of them.
    const tooMany = stringify({
      ...agentDefinition({ name: 'too_many', tools: [] }),
      inputConfig: {
        inputs: Object.fromEntries(
          Array.from({ length: 10 }, (_, n) => [`in_${n.toString()}`, { description: 'd', type: 'nope' }]),
        ),
      },
    });
    const refused = host.invoke('agents.import', { fileName: 'too-many.yaml', text: tooMany });
    await expect(refused).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(
        /^This file has 10 mistakes\. (Line \d+: [^]+? ){8}2 more mistakes are not listed: fix these, and Deputy will list the rest\.$/,
      ),
    });
  });
});
