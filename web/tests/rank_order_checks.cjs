// Browser checks of the generator form's rank order (ui/scenario_panel.cpp edit_rank_order), with the real
// mouse on the ImGui combo (its rectangles come from window.astrolabe.widgetRect):
//  1. a generated dp 2 x tp 8 step on two HGX H100 nodes shows the hardware default, tp-first, when the
//     scenario names no order;
//  2. picking dp-first writes `rank-order` into the scenario, and the page's run equals the CLI's run of
//     the same scenario file;
//  3. picking "(default)" removes the key again; the run is the CLI's tp-first run and its warnings carry
//     the note that says the order was chosen for the hardware.
// Screenshot: build/screenshots/rank_order_combo.png.
'use strict';
const fs = require('fs');
const path = require('path');
const { openApp } = require('./app_page.cjs');
const { cliTotal } = require('./cli_run.cjs');
const { rectOf, clickWidget } = require('./widgets.cjs');

async function rankOrderChecks({ browser, base, cli, check, shotsDir }) {
  const { context, page, errors } = await openApp(browser, base);
  const generate = {
    kind: 'transformer', model: 'gpt', hidden: 4096, heads: 32, layers: 2, seq: 4096, batch: 4,
    'micro-batch': 2, dp: 2, tp: 8, 'dtype-bytes': 2,
  };
  const hardware = { gpu: 'H100-SXM', nodes: 2, gpus_per_node: 8, nics_per_node: 8, nic_gbps: 400, fabric: 'infiniband' };
  const loaded = await page.evaluate((s) => window.astrolabe.loadScenario(s), { workload: { generate }, hardware });
  check(loaded.ok, 'rank order: a generated step on 2 x 8 H100 loads', loaded.problems);
  await page.waitForTimeout(300);

  // 1. The combo's default, and its items once opened by the mouse.
  await clickWidget(page, 'rank-order');
  await rectOf(page, 'rank-order:dp-first');
  fs.mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: path.join(shotsDir, 'rank_order_combo.png') });
  const opened = await page.evaluate(() => ['(default)', 'dp-first', 'tp-first']
    .every((i) => window.astrolabe.widgetRect('rank-order:' + i) !== null));
  check(opened, 'rank order: the combo opens with the mouse and lists (default), dp-first and tp-first');

  // 2. dp-first, picked with the mouse.
  await clickWidget(page, 'rank-order:dp-first');
  let gen = (await page.evaluate(() => window.astrolabe.scenario())).workload.generate;
  check(gen['rank-order'] === 'dp-first', 'rank order: picking dp-first writes it into the scenario', JSON.stringify(gen));
  let report = await page.evaluate(async () => (await window.astrolabe.run(), window.astrolabe.report()));
  const dpFirst = cliTotal(cli, { workload: { generate: { ...generate, 'rank-order': 'dp-first' } }, hardware }, 'rank-order-dp');
  check(report.complete && report.total_ns === dpFirst,
    'rank order: the page\'s dp-first run is the CLI\'s (' + report.total_ns + ' ns)', 'CLI: ' + dpFirst);

  // 3. Back to the default: the key goes, the run is tp-first, with the note.
  await clickWidget(page, 'rank-order');
  await clickWidget(page, 'rank-order:(default)');
  gen = (await page.evaluate(() => window.astrolabe.scenario())).workload.generate;
  check(!('rank-order' in gen), 'rank order: "(default)" removes the key', JSON.stringify(gen));
  report = await page.evaluate(async () => (await window.astrolabe.run(), window.astrolabe.report()));
  const tpFirst = cliTotal(cli, { workload: { generate: { ...generate, 'rank-order': 'tp-first' } }, hardware }, 'rank-order-tp');
  const noted = (report.warnings || []).some((w) => /ranks numbered tp-first \(Megatron's order/.test(w.message || w));
  check(report.complete && report.total_ns === tpFirst && noted,
    'rank order: by default with hardware the run is the CLI\'s tp-first run (' + report.total_ns + ' ns, dp-first ' +
    dpFirst + ' ns), with a note saying so', 'CLI tp-first ' + tpFirst + '; warnings ' + JSON.stringify(report.warnings));
  check(errors.length === 0, 'rank order: no script errors', errors.join('\n'));
  await context.close();
}

module.exports = { rankOrderChecks };
