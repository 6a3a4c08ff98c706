// Browser checks of a scenario on a real system (ui/scenario_hardware.cpp), with the real mouse and keyboard:
//  1. a generated dp 2 x tp 8 step on an ASTRA-sim network; in the Hardware tab the preset "2 x HGX H100"
//     is picked and "Use in scenario" clicked: the scenario's network and system give way to the tab's
//     description, and the scenario panel shows its Hardware section;
//  2. the page's run equals `astrolabe run --scenario` of the same scenario;
//  3. nic_gbps typed into the section (400 -> 100): the scenario changes, the run is the CLI's again and
//     slower (the data-parallel all-reduces cross the NICs);
//     its share link, opened in a fresh profile, gives the same run (3b); fabric efa picked in the
//     section drops the hosts, transport and tuner for the new fabric's defaults and runs as the CLI (3c);
//  4. "Edit in the Hardware tab" opens the tab on that description (nic_gbps 100, not a preset);
//  5. the Search tab lists the description's keys; a grid over nic_gbps gives the CLI's log for the tab's spec;
//  6. "Network and system instead" brings back the network and system it replaced, byte for byte;
//  7. after another scenario is loaded, the stash is not applied to it: its own description is mapped;
//  8. "Generate a microbenchmark" names no npus: it spans the description's GPUs (8, then 16 with nodes 2).
// Screenshots: build/screenshots/scenario_hardware.png, scenario_hardware_search.png,
// scenario_hardware_microbench.png.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { openApp } = require('./app_page.cjs');
const { cliTotal } = require('./cli_run.cjs');
const { nativeSearch, downloadOf } = require('./search_checks.cjs');
const { clickWidget, pick, typeInto } = require('./widgets.cjs');

async function scenarioHardwareChecks({ browser, base, cli, check, shotsDir }) {
  const { context, page, errors } = await openApp(browser, base);
  const start = {
    workload: { generate: { kind: 'transformer', model: 'gpt', hidden: 4096, heads: 32, layers: 2, seq: 4096,
      batch: 4, 'micro-batch': 2, dp: 2, tp: 8, 'dtype-bytes': 2 } },
    network: { topology: ['Switch', 'Switch'], npus_count: [8, 2], bandwidth: [300, 50], latency: [500, 2000] },
    system: { 'all-reduce-implementation': ['ring', 'ring'], 'all-gather-implementation': ['ring', 'ring'],
      'reduce-scatter-implementation': ['ring', 'ring'], 'all-to-all-implementation': ['direct', 'direct'] },
  };
  const loaded = await page.evaluate((s) => window.astrolabe.loadScenario(s), start);
  check(loaded.ok, 'scenario hardware: a generated step on a 2-D network loads', loaded.problems);
  const before = await page.evaluate(() => window.astrolabe.scenario());

  // 1. The Hardware tab's preset, used in the scenario.
  await clickWidget(page, 'tab:Hardware');
  await pick(page, 'preset', '2 x HGX H100 (IB 8 x 400G)');
  await clickWidget(page, 'hardware:use_in_scenario');
  let sc = await page.evaluate(() => window.astrolabe.scenario());
  const tab = await page.evaluate(() => window.astrolabe.hardwarePanel());
  check(sc.hardware && sc.hardware.nodes === 2 && sc.hardware.nic_gbps === 400 && !sc.network && !sc.system &&
    ['gpu', 'nodes', 'gpus_per_node', 'nics_per_node', 'nic_gbps', 'fabric'].every((k) => sc.hardware[k] === tab.hardware[k]) &&
    (await page.evaluate(() => window.astrolabe.widgetRect('scenario:hardware:nodes'))) !== null,
  'scenario hardware: "Use in scenario" puts the tab\'s description in place of the network and system, and the ' +
    'scenario panel shows its Hardware section', JSON.stringify(sc) + '\n' + JSON.stringify(tab.hardware));

  // 2. The page's run is the CLI's.
  let report = await page.evaluate(async () => (await window.astrolabe.run(), window.astrolabe.report()));
  const at400 = cliTotal(cli, sc, 'scenario-hw-400');
  check(report.complete && report.total_ns === at400,
    'scenario hardware: the page\'s run on 2 x HGX H100 is the CLI\'s (' + report.total_ns + ' ns)', 'CLI: ' + at400);
  await page.mouse.move(20, 780);
  await page.waitForTimeout(200);
  fs.mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: path.join(shotsDir, 'scenario_hardware.png') });

  // 3. nic_gbps typed into the section.
  await typeInto(page, 'scenario:hardware:nic_gbps', '100');
  sc = await page.evaluate(() => window.astrolabe.scenario());
  report = await page.evaluate(async () => (await window.astrolabe.run(), window.astrolabe.report()));
  const at100 = cliTotal(cli, sc, 'scenario-hw-100');
  check(sc.hardware.nic_gbps === 100 && report.complete && report.total_ns === at100 && at100 > at400,
    'scenario hardware: nic_gbps 100 typed in gives the CLI\'s run (' + at100 + ' ns, slower than ' + at400 + ')',
    JSON.stringify(sc.hardware) + ' page ' + report.total_ns);

  // 3b. Its share link, opened in a fresh profile, runs the same system to the same ns.
  const link = await page.evaluate(() => window.astrolabe.shareUrl());
  const fresh = await openApp(browser, link);
  await fresh.page.waitForFunction(() => window.astrolabe.reportText().length > 0, null, { timeout: 60000 });
  const shared = await fresh.page.evaluate(() => ({ sc: window.astrolabe.scenario(), r: window.astrolabe.report() }));
  check(shared.sc.hardware && shared.sc.hardware.nic_gbps === 100 && !shared.sc.network &&
    shared.r.total_ns === at100 && fresh.errors.length === 0,
  'scenario hardware: its share link, opened in a fresh profile, runs the same system (' + shared.r.total_ns + ' ns)',
  JSON.stringify(shared.sc.hardware) + ' ' + shared.r.total_ns + '\n' + fresh.errors.join('\n'));
  await fresh.context.close();

  // 3c. fabric efa picked with the mouse in the section: the description's hosts, EFA transport and tuner
  // go (they take the new fabric's defaults: a p5's AMD hosts) and the run is the CLI's for it; infiniband
  // picked again runs as before (its defaults: Intel hosts).
  check(sc.hardware.cpu === 'intel', 'scenario hardware: the tab\'s description names its hosts (intel)',
    JSON.stringify(sc.hardware));
  await pick(page, 'scenario:hardware:fabric', 'efa');
  sc = await page.evaluate(() => window.astrolabe.scenario());
  report = await page.evaluate(async () => (await window.astrolabe.run(), window.astrolabe.report()));
  const onEfa = cliTotal(cli, sc, 'scenario-hw-efa');
  check(sc.hardware.fabric === 'efa' && sc.hardware.cpu === undefined && report.complete &&
    report.total_ns === onEfa,
  'scenario hardware: fabric efa picked with the mouse drops the hosts for the platform\'s and runs as the CLI (' +
    onEfa + ' ns)', JSON.stringify(sc.hardware) + ' page ' + report.total_ns);
  await pick(page, 'scenario:hardware:fabric', 'infiniband');
  sc = await page.evaluate(() => window.astrolabe.scenario());
  report = await page.evaluate(async () => (await window.astrolabe.run(), window.astrolabe.report()));
  check(sc.hardware.fabric === 'infiniband' && report.total_ns === at100,
    'scenario hardware: infiniband picked again runs as before (' + report.total_ns + ' ns)',
    JSON.stringify(sc.hardware));

  // 4. Back to the tab, on the scenario's description.
  await clickWidget(page, 'scenario:hardware_edit');
  const state = await page.evaluate(() => ({ view: window.astrolabe.viewState(), hw: window.astrolabe.hardwarePanel() }));
  check(state.view.results_tab === 'Hardware' && state.hw.preset === '(the scenario\'s)' &&
    state.hw.hardware.nic_gbps === 100 && state.hw.rows.length > 0,
  'scenario hardware: "Edit in the Hardware tab" opens the tab on the scenario\'s description (nic_gbps 100)',
  JSON.stringify({ tab: state.view.results_tab, preset: state.hw.preset, hw: state.hw.hardware }));

  // 5. The Search tab over the scenario on a real system: its fields include the description's keys, and
  // a grid search over nic_gbps (the tab's own values, 100, 50, 200) gives the CLI's log for the spec the
  // tab writes (its constraint, dp * tp == npus, counts the system's 16 GPUs).
  await clickWidget(page, 'tab:Search');
  await clickWidget(page, 'search:tick:hardware.nic_gbps', 8);
  await pick(page, 'search:agent', 'grid');
  await typeInto(page, 'search:budget', '10');
  await clickWidget(page, 'search:run');
  await page.waitForFunction(() => ['done', 'failed'].includes(window.astrolabe.searchState().phase), null,
    { timeout: 60000, polling: 100 }).catch(() => {});
  const ss = await page.evaluate(() => window.astrolabe.searchState());
  const spec = await downloadOf(page, 'search:download_spec');
  const log = await downloadOf(page, 'search:download');
  const specFile = path.join(os.tmpdir(), 'astrolabe-scenario-hw-search-' + process.pid + '.json');
  fs.writeFileSync(specFile, spec.bytes);
  const want = fs.readFileSync(path.join(nativeSearch(cli, specFile, 'grid', ss.seed, 10), 'evaluations.jsonl'));
  check(ss.phase === 'done' && ss.evaluations === 3 && ss.ticked.includes('hardware.nic_gbps: 100, 50, 200') &&
    log.bytes.equals(want),
  'scenario hardware: the Search tab ticks hardware.nic_gbps and its grid search of 3 points is the CLI\'s log',
  JSON.stringify(ss) + '\n' + log.bytes.toString().split('\n')[0]);
  await page.screenshot({ path: path.join(shotsDir, 'scenario_hardware_search.png') });

  // 6. The network and system come back.
  await clickWidget(page, 'scenario:hardware_leave');
  sc = await page.evaluate(() => window.astrolabe.scenario());
  check(!sc.hardware && JSON.stringify(sc.network) === JSON.stringify(before.network) &&
    JSON.stringify(sc.system) === JSON.stringify(before.system),
  'scenario hardware: "Network and system instead" brings back the network and system it replaced',
  JSON.stringify(sc));

  // 7. A stash belongs to its scenario: used again, then another scenario with its own description loaded,
  // "Network and system instead" gives that description's mapped network (two Switch dimensions at
  // NCCL's rates), not the first scenario's network.
  await clickWidget(page, 'tab:Hardware');
  await clickWidget(page, 'hardware:use_in_scenario');
  const other = { workload: start.workload,
    hardware: { gpu: 'H100-SXM', nodes: 2, gpus_per_node: 8, nics_per_node: 8, nic_gbps: 200, fabric: 'infiniband' } };
  const loadedOther = await page.evaluate((s) => window.astrolabe.loadScenario(s), other);
  await clickWidget(page, 'scenario:hardware_leave');
  sc = await page.evaluate(() => window.astrolabe.scenario());
  check(loadedOther.ok && !sc.hardware && JSON.stringify(sc.network.topology) === '["Switch","Switch"]' &&
    JSON.stringify(sc.network.npus_count) === '[8,2]' &&
    JSON.stringify(sc.network.bandwidth) !== JSON.stringify(before.network.bandwidth),
  'scenario hardware: after another scenario is loaded, leaving its description maps it (not the first ' +
    'scenario\'s stashed network)', JSON.stringify(sc.network));

  // 8. A microbenchmark made with the mouse names no npus and spans the system: on one node it has 8 ranks;
  // with nodes typed up to 2 the same scenario runs 16, the CLI's run of it to the ns.
  const oneNode = { workload: { sample: 'allreduce_ring8' },
    hardware: { gpu: 'H100-SXM', nodes: 1, gpus_per_node: 8, nics_per_node: 8, nic_gbps: 400, fabric: 'infiniband' } };
  const loadedOne = await page.evaluate((s) => window.astrolabe.loadScenario(s), oneNode);
  await clickWidget(page, 'scenario:generated');
  await clickWidget(page, 'scenario:generate_microbench');
  sc = await page.evaluate(() => window.astrolabe.scenario());
  report = await page.evaluate(async () => (await window.astrolabe.run(), window.astrolabe.report()));
  const gen = sc.workload && sc.workload.generate;
  check(loadedOne.ok && gen && gen.kind === 'microbench' && !('npus' in gen) && report.complete &&
    report.npus.length === 8,
  'scenario hardware: "Generate a microbenchmark" names no npus and runs on the node\'s 8 GPUs',
  JSON.stringify(sc) + ' npus ' + (report.npus || []).length);
  await typeInto(page, 'scenario:hardware:nodes', '2');
  sc = await page.evaluate(() => window.astrolabe.scenario());
  report = await page.evaluate(async () => (await window.astrolabe.run(), window.astrolabe.report()));
  const twoNodes = cliTotal(cli, sc, 'scenario-hw-microbench');
  check(sc.hardware.nodes === 2 && !('npus' in sc.workload.generate) && report.complete &&
    report.npus.length === 16 && report.total_ns === twoNodes,
  'scenario hardware: with nodes 2 typed in, the microbenchmark spans 16 GPUs, the CLI\'s run (' + twoNodes + ' ns)',
  JSON.stringify(sc) + ' page ' + report.total_ns + ' on ' + (report.npus || []).length);
  await page.mouse.move(20, 780);
  await page.waitForTimeout(200);
  await page.screenshot({ path: path.join(shotsDir, 'scenario_hardware_microbench.png') });
  check(errors.length === 0, 'scenario hardware: no script errors', errors.join('\n'));
  await context.close();
}

module.exports = { scenarioHardwareChecks };
