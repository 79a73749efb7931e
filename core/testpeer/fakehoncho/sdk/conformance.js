// Drives Honcho's official TypeScript SDK (@honcho-ai/sdk, pinned by
// package-lock.json) against a fake Honcho, through every route Boxmaker
// uses, and prints one JSON line per step: {"step", "value"} or
// {"step", "error": {"name", "status"}}. core/honcho/conformance_test.go
// starts the fake, runs this with node, and judges the lines.
//
// Environment: HONCHO_URL, TOKEN (a key for workspace "w1"),
// OTHER_TOKEN (a key for workspace "w2").
'use strict';
const { Honcho } = require('@honcho-ai/sdk');

function out(step, value) {
  process.stdout.write(JSON.stringify({ step, value }) + '\n');
}
function outError(step, e) {
  process.stdout.write(JSON.stringify({ step, error: { name: e.name || e.constructor.name, status: e.status ?? null } }) + '\n');
}
async function step(name, fn) {
  try {
    out(name, await fn());
  } catch (e) {
    outError(name, e);
  }
}
function msg(m) {
  return { id: m.id, content: m.content, peerId: m.peerId, sessionId: m.sessionId, workspaceId: m.workspaceId,
    metadata: m.metadata, createdAt: m.createdAt, tokenCount: m.tokenCount };
}

async function main() {
  const url = process.env.HONCHO_URL;
  const honcho = new Honcho({ baseURL: url, apiKey: process.env.TOKEN, workspaceId: 'w1', maxRetries: 0 });
  let s;
  await step('session-create', async () => {
    s = await honcho.session('s1', { peers: ['kyle', 'ann'] });
    return { id: s.id, isActive: s.isActive, createdAt: s.createdAt };
  });
  await step('session-get', async () => {
    const again = await honcho.session('s1', { peers: ['kyle', 'ann'] });
    return { id: again.id };
  });
  await step('peer-get', async () => {
    const p = await honcho.peer('kyle');
    return { id: p.id };
  });
  const ann = await honcho.peer('ann');
  const kyle = await honcho.peer('kyle');
  await step('messages-add', async () => {
    const added = await s.addMessages([
      ann.message('where is the osprey nest?', { metadata: { boxmaker_id: 'u-1', boxmaker_kind: 'user' }, createdAt: '2026-10-01T09:00:00.000Z' }),
      kyle.message('On the north cliff.', { metadata: { boxmaker_id: 'a-1', boxmaker_kind: 'assistant' }, createdAt: '2026-10-01T09:00:01.000Z' }),
      ann.message('thanks', { metadata: { boxmaker_id: 'u-2' } }),
    ]);
    return added.map(msg);
  });
  await step('messages-list', async () => {
    const page = await s.messages({ reverse: true, size: 100, page: 1 });
    return { items: page.items.map(msg), total: page.total, page: page.page, size: page.size, pages: page.pages };
  });
  await step('messages-by-id', async () => {
    const page = await s.messages({ filters: { metadata: { boxmaker_id: { in: ['u-1', 'u-2', 'nope'] } } }, size: 100 });
    return { items: page.items.map(msg), total: page.total, page: page.page, size: page.size, pages: page.pages };
  });
  await step('search', async () => (await honcho.search('osprey nest', { limit: 5 })).map(msg));
  await step('search-none', async () => (await honcho.search('kestrel', { limit: 5 })).map(msg));
  await step('messages-add-101', async () => {
    const many = [];
    for (let i = 0; i < 101; i++) many.push(ann.message('m' + i));
    return (await s.addMessages(many)).length;
  });
  await step('messages-add-100', async () => {
    const many = [];
    for (let i = 0; i < 100; i++) many.push(ann.message('n' + i, { metadata: { boxmaker_id: 'n-' + i } }));
    return (await s.addMessages(many)).length;
  });
  await step('messages-add-too-long', async () => (await s.addMessages([ann.message('x'.repeat(25001))])).length);
  await step('messages-add-longest', async () => (await s.addMessages([ann.message('y'.repeat(25000))]))[0].content.length);
  await step('name-with-a-dot', async () => (await honcho.session('s.1')).id);
  const other = new Honcho({ baseURL: url, apiKey: process.env.OTHER_TOKEN, workspaceId: 'w1', maxRetries: 0 });
  await step('other-workspace-key', async () => (await other.session('s1')).id);
  const none = new Honcho({ baseURL: url, apiKey: 'not-a-jwt', workspaceId: 'w1', maxRetries: 0 });
  await step('bad-key', async () => (await none.search('osprey')).length);
}

main().catch((e) => { console.error(e); process.exit(1); });
