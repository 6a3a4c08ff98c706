// Browser checks: the generator form reproduces STAGE's traces. Two of STAGE's reference plans are entered
// with the real mouse and keyboard on the ImGui form (a sequence-parallel plan and a weight-sharded, mixed-
// precision one), run in the page, and every collective the report lists, as (type, members, comm_size)
// with its count, must be what STAGE's traces hold (tests/data/stage/<set>.json, the per-rank profiles of
// STAGE @ 3a7f49c's traces: each rank's count / group size gives the group's collectives). The same
// scenario run by the native CLI gives the same report.
//
// The form sits at fixed places (ui/ui.h): the coordinates below are those of a 1280 x 800 page showing a
// generated transformer workload; a layout change makes the scenario checks fail, naming the field.
'use strict';
const fs = require('fs');
const path = require('path');
const { cliReportText } = require('./cli_run.cjs');
const { afterFrames, selectAll } = require('./frames.cjs');

const DATA = path.join(__dirname, '..', '..', 'tests', 'data', 'stage');

// Widget centres in the Scenario panel (generated transformer, no preset).
const FIELD = {
  sp: { x: 170, y: 368 },
  ffn: { x: 52, y: 436 },
  'kv-heads': { x: 175, y: 436 },
  'weight-sharded': { x: 17, y: 413 },
  'mixed-precision': { x: 17, y: 459 },
};

// STAGE's collectives over the whole set: "TYPE members size" -> how many group collectives.
function stageCollectives(set) {
  const j = JSON.parse(fs.readFileSync(path.join(DATA, set + '.json'), 'utf8'));
  const out = {};
  for (const c of j.classes)
    for (const [type, members, size, count] of c.collectives) {
      const key = type + ' ' + members + ' ' + size;
      out[key] = (out[key] || 0) + (count * c.ranks.length) / members;
    }
  return out;
}

// The report's collectives the same way.
function reportCollectives(report) {
  const out = {};
  for (const c of report.collectives) {
    const key = c.type + ' ' + c.npus + ' ' + c.bytes;
    out[key] = (out[key] || 0) + 1;
  }
  return out;
}

function differences(expected, got) {
  const keys = [...new Set([...Object.keys(expected), ...Object.keys(got)])].sort();
  return keys.filter((k) => expected[k] !== got[k])
    .map((k) => k + ': ' + (got[k] || 0) + ' in the report, STAGE ' + (expected[k] || 0)).join('\n');
}

// ImGui sees input once per frame: a press and release need frames between them, and so do two actions.
const FRAME_WAIT = 250;

// Types `value` into a number field: click it, select its text, type, leave with Tab.
async function typeInto(page, field, value) {
  const at = FIELD[field];
  await page.mouse.click(at.x, at.y, { delay: 60 });
  await page.waitForTimeout(FRAME_WAIT);
  await afterFrames(page, 2);
  await selectAll(page);
  await page.keyboard.type(String(value), { delay: 30 });
  await afterFrames(page, 2);
  await page.keyboard.press('Tab');
  await page.waitForTimeout(FRAME_WAIT);
  await afterFrames(page, 2);
}

async function tick(page, field) {
  const at = FIELD[field];
  await page.mouse.click(at.x, at.y, { delay: 60 });
  await page.waitForTimeout(FRAME_WAIT);
  await afterFrames(page, 2);
}

async function stageChecks(page, { check, cli, stripHost }) {
  const network = { topology: ['Switch'], npus_count: [8], bandwidth: [50], latency: [500] };
  const system = { 'endpoint-delay': 10, 'preferred-dataset-splits': 1 };
  const plans = [
    {
      set: 'gpt_dp2tp1pp1sp4_4l',
      what: 'sequence parallelism (sp 4 x dp 2)',
      start: { model: 'gpt', layers: 4, hidden: 1024, heads: 16, seq: 2048, batch: 4, 'micro-batch': 2, dp: 2, tp: 1, pp: 1 },
      edits: [['type', 'sp', 4]],
      expect: { sp: 4 },
    },
    {
      set: 'llama_dp2tp2pp2_fsdp_mp_4l',
      what: 'weight sharding + mixed precision (dp 2 x tp 2 x pp 2, GQA)',
      start: { model: 'llama', layers: 4, hidden: 1024, heads: 8, seq: 2048, batch: 8, 'micro-batch': 2, dp: 2, tp: 2, pp: 2 },
      edits: [['type', 'ffn', 2816], ['type', 'kv-heads', 2], ['tick', 'weight-sharded'], ['tick', 'mixed-precision']],
      expect: { ffn: 2816, 'kv-heads': 2, 'weight-sharded': 1, 'mixed-precision': 1 },
    },
  ];
  for (const plan of plans) {
    const loaded = await page.evaluate((s) => window.astrolabe.loadScenario(s), {
      workload: { generate: { kind: 'transformer', ...plan.start } }, network, system,
    });
    check(loaded.ok, 'STAGE ' + plan.set + ': the starting plan loads', loaded.problems);
    await page.waitForTimeout(300);
    // A click on the empty Results area first, so the canvas has the keyboard focus.
    await page.mouse.click(860, 400, { delay: 60 });
    await page.waitForTimeout(FRAME_WAIT);
    for (const [how, field, value] of plan.edits) {
      if (how === 'type') await typeInto(page, field, value);
      else await tick(page, field);
    }
    const gen = (await page.evaluate(() => window.astrolabe.scenario())).workload.generate;
    const wrong = Object.keys(plan.expect).filter((k) => Number(gen[k]) !== plan.expect[k]);
    check(wrong.length === 0, 'STAGE ' + plan.set + ': mouse and keyboard on the generator form set ' +
      Object.keys(plan.expect).join(', '), wrong.map((k) => k + ' is ' + gen[k] + ', expected ' + plan.expect[k]).join('\n'));
    const report = await page.evaluate(async () => (await window.astrolabe.run(), window.astrolabe.report()));
    const diff = differences(stageCollectives(plan.set), reportCollectives(report));
    check(report.complete && diff === '', 'STAGE ' + plan.set + ' (' + plan.what + '): the browser run has STAGE\'s ' +
      report.collectives.length + ' collectives, type, members and size',
      diff ? diff + '\n     the form\'s generator: ' + JSON.stringify(gen) : 'the run did not complete');
    // The same scenario through the native CLI: the same report, byte for byte apart from host timing.
    const native = cliReportText(cli, await page.evaluate(() => window.astrolabe.scenario()), 'stage');
    const browserText = await page.evaluate(() => window.astrolabe.reportText());
    check(stripHost(browserText) === stripHost(native), 'STAGE ' + plan.set + ': the native CLI run of the form\'s scenario gives the same report');
  }
}

module.exports = { stageChecks };
