// Browser checks of the Hardware tab (ui/hardware_panel.cpp) and window.astrolabe.collectivePerf, driven by
// the real mouse and keyboard on the ImGui widgets (their rectangles come from window.astrolabe.widgetRect):
//  1. the Hardware tab opens with a click and shows the first preset's curve, equal to the CLI's
//     `collective-perf --json -d float` for samples/hardware/h100x8.json (the tab always names a type, so
//     its sizes are nccl-tests' for it); prod picked in the redop combo runs without NVLS, as -o prod;
//  2. choosing all_gather, double in the type combo, and then the two-node preset gives the CLI's rows
//     for each, and with collnet ticked; nccl_proto Simple picked runs every size Simple (step 1b);
//  3. typing a node count into the field recomputes (the CLI agrees on a file with that count), and
//     picking an AMD host in the cpu combo slows multi-node LL to NCCL's AMD rate, as the CLI says;
//     picking a fabric sets the hosts its platform has (efa: a p5's AMD; infiniband: Intel again);
//     the p5 preset and its EFA transport switched to send/receive give the CLI's rows for each;
//     the 8-node p5 preset runs AWS's tuner and nccl_tuner switched to nccl gives NCCL's own choice;
//  3d. sizes typed into the from/to fields (nccl-tests' -b/-e) give the CLI's rows, a bad one its message;
//  3e. Share curve gives a link that restores the tab in a fresh profile and that the CLI's --link runs;
//  3f. Compare measured... clicked, an nccl-tests output chosen in the file picker: the tab runs its sizes
//      beside it (the CLI's `--measured` rows and errors); picked as all-gather, the table's busbw/algbw
//      names the run it is of; Share curve is disabled beside it; Clear measured clears it; a text that is
//      no table is refused with its reason; the same output dropped on the page is set beside it too (and the
//      refusal leaves the status line);
//  3g. nccl_buffsize picked with the mouse gives the CLI's rows for that NCCL_BUFFSIZE;
//  3h. Fit net_efficiency beside a ring table measured at 0.85 of line rate sets what `--fit` gives and the
//      CLI's rows on the fitted file; a fraction typed into net_efficiency gives the CLI's rows for it,
//      default brings the fabric's back; without rings the fit is refused with its reason on the tab;
//  4. an impossible system (A100 with NVLS) shows the parser's message and the page keeps working;
//  5. collectivePerf() gives the CLI's rows (with and without a type) and rejects bad input with a message.
// Screenshots: build/screenshots/hardware_*.png.
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { selectAll } = require('./frames.cjs');
const { openApp } = require('./app_page.cjs');
const { rectOf, clickWidget, pick, typeInto } = require('./widgets.cjs');

function cliRows(cli, hwPath, op, extra = []) {
  const out = execFileSync(cli, ['collective-perf', '--op', op, '--hardware', hwPath, '--json', ...extra]);
  return JSON.parse(out.toString()).rows;
}

// The tab's type and reduction as the CLI spells them (its defaults: float, sum).
const TAB = ['-d', 'float'];

// The CLI's rows for a sample description with some keys changed (written to a temporary file, as a user
// would save the form's system), with the tab's default type.
function cliRowsEdited(cli, hwPath, edits, op, extra = []) {
  const hw = Object.assign(JSON.parse(fs.readFileSync(hwPath, 'utf8')), edits);
  const tmp = path.join(os.tmpdir(), 'astrolabe-edited-' + path.basename(hwPath));
  fs.writeFileSync(tmp, JSON.stringify(hw));
  return cliRows(cli, tmp, op, [...TAB, ...extra]);
}

// Same sizes and times (to the JSON's 6 decimals) in both lists.
function sameRows(a, b) {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  return a.every((r, i) => r.size_bytes === b[i].size_bytes && Math.abs(r.time_us - b[i].time_us) < 1e-6);
}

async function hardwareChecks({ browser, base, cli, samplesDir, check }) {
  const { context, page, errors } = await openApp(browser, base);
  const shots = path.join('build', 'screenshots');
  fs.mkdirSync(shots, { recursive: true });
  const hwDir = path.join(samplesDir, 'hardware');

  // 1. The tab, opened by a click.
  await clickWidget(page, 'tab:Hardware');
  await rectOf(page, 'preset');
  let panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  const h100x8 = cliRows(cli, path.join(hwDir, 'h100x8.json'), 'all_reduce', TAB);
  check(sameRows(panel.rows, h100x8), 'Hardware tab: the first preset\'s all-reduce curve is the CLI\'s (' +
    panel.rows.length + ' sizes, 8 B-16 GiB)', JSON.stringify(panel).slice(0, 400));
  await page.screenshot({ path: path.join(shots, 'hardware_allreduce.png') });

  // 1b. The reduction by mouse: NVLink SHARP only adds floats, so prod runs the node without NVLS, as the
  // CLI's -o prod does, and 16 GiB (NVLS with sum) takes longer; the tab says why. Back to sum after.
  await pick(page, 'redop', 'prod');
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  const prodRows = cliRows(cli, path.join(hwDir, 'h100x8.json'), 'all_reduce', [...TAB, '-o', 'prod']);
  const last = (rows) => rows[rows.length - 1];
  check(panel.redop === 'prod' && panel.nvls_unusable && sameRows(panel.rows, prodRows) &&
    last(h100x8).algo === 'nvls' && last(panel.rows).algo !== 'nvls' && last(panel.rows).time_us > last(h100x8).time_us,
    'Hardware tab: redop prod picked with the mouse gives the CLI\'s -o prod rows, without NVLS and slower at 16 GiB',
    JSON.stringify({ redop: panel.redop, unusable: panel.nvls_unusable, sum: last(h100x8), prod: last(panel.rows) }));
  await page.screenshot({ path: path.join(shots, 'hardware_redop_prod.png') });
  await pick(page, 'redop', 'sum');
  // nccl_proto forced to Simple with the mouse (NCCL_PROTO=Simple): every size runs Simple, the CLI's rows
  // for the file with that key; back to auto.
  await pick(page, 'nccl_proto', 'Simple');
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  check(panel.rows.every((r) => r.proto === 'Simple') &&
    sameRows(panel.rows, cliRowsEdited(cli, path.join(hwDir, 'h100x8.json'), { nccl_proto: 'Simple' }, 'all_reduce')),
    'Hardware tab: nccl_proto Simple picked with the mouse runs every size Simple, the CLI\'s rows', JSON.stringify(panel.rows.slice(0, 2)));
  await pick(page, 'nccl_proto', 'auto');

  // 2. Combos, by mouse.
  await pick(page, 'collective', 'all_gather');
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  check(panel.op === 'all_gather' && sameRows(panel.rows, cliRows(cli, path.join(hwDir, 'h100x8.json'), 'all_gather', TAB)),
    'Hardware tab: all_gather picked with the mouse gives the CLI\'s rows', JSON.stringify(panel).slice(0, 300));
  // double: whole doubles per rank, at least 16 bytes each (nccl-tests' cut, as for every type), so the
  // curve starts at 128 B (8 ranks x 16 B), as nccl-tests -d double.
  await pick(page, 'type', 'double');
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  check(panel.type === 'double' && panel.rows[0].size_bytes === 128 &&
    sameRows(panel.rows, cliRows(cli, path.join(hwDir, 'h100x8.json'), 'all_gather', ['-d', 'double'])),
    'Hardware tab: double picked with the mouse gives the CLI\'s -d double rows, from 128 B',
    JSON.stringify(panel).slice(0, 300));
  await pick(page, 'type', 'float');
  await pick(page, 'preset', '2 x HGX H100 (IB 8 x 400G)');
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  check(sameRows(panel.rows, cliRows(cli, path.join(hwDir, 'h100x16.json'), 'all_gather', TAB)),
    'Hardware tab: the two-node preset gives the CLI\'s rows for h100x16.json', JSON.stringify(panel).slice(0, 300));
  // InfiniBand SHARP (collnet) ticked on the IB preset: the CLI's rows for the file with collnet true; unticked.
  await clickWidget(page, 'collnet');
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  check(panel.problems.length === 0 &&
    sameRows(panel.rows, cliRowsEdited(cli, path.join(hwDir, 'h100x16.json'), { collnet: true }, 'all_gather')),
    'Hardware tab: collnet ticked with the mouse gives the CLI\'s rows for collnet: true', JSON.stringify(panel.problems));
  await clickWidget(page, 'collnet');

  // 3. The keyboard: 4 nodes typed into the field.
  await clickWidget(page, 'nodes');
  await selectAll(page);
  await page.keyboard.type('4');
  await page.keyboard.press('Enter');
  await page.waitForTimeout(200);
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  const h100x16Path = path.join(hwDir, 'h100x16.json');
  check(sameRows(panel.rows, cliRowsEdited(cli, h100x16Path, { nodes: 4 }, 'all_gather')),
    'Hardware tab: 4 nodes typed in recompute the curve as the CLI gives it for 4 nodes', JSON.stringify(panel).slice(0, 300));
  check(panel.preset === '2 x HGX H100 (IB 8 x 400G) (edited)',
    'Hardware tab: the two-node preset taken to 4 nodes is named as edited, not as the preset', panel.preset);
  await page.mouse.move(700, 600); // over the chart: a tooltip for the nearest size
  await page.waitForTimeout(150);
  await page.screenshot({ path: path.join(shots, 'hardware_4nodes_allgather.png') });
  const intelRows = panel.rows;
  await pick(page, 'cpu', 'amd');
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  const slower = panel.rows.some((r, i) => r.time_us > intelRows[i].time_us);
  check(sameRows(panel.rows, cliRowsEdited(cli, h100x16Path, { nodes: 4, cpu: 'amd' }, 'all_gather')) && slower,
    'Hardware tab: cpu amd picked with the mouse gives the CLI\'s rows, slower where LL crosses nodes',
    JSON.stringify(panel).slice(0, 300));

  // The hosts follow the platform when the fabric is picked, as the parser defaults a description without
  // cpu: H100 on EFA is a p5 (AMD hosts), H100 on RoCE an OCI/HGX node (Intel); back on InfiniBand, Intel.
  await pick(page, 'fabric', 'efa');
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  check(sameRows(panel.rows, cliRowsEdited(cli, h100x16Path, { nodes: 4, fabric: 'efa' }, 'all_gather')),
    'Hardware tab: fabric efa picked with the mouse gives the CLI\'s rows for an H100 EFA description without cpu (p5: AMD hosts)',
    JSON.stringify(panel).slice(0, 300));
  await pick(page, 'fabric', 'infiniband');
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  check(sameRows(panel.rows, intelRows),
    'Hardware tab: fabric infiniband picked again gives the Intel hosts\' rows back', JSON.stringify(panel).slice(0, 300));

  // 3b. The p5 preset (EFA with RDMA writes), then its transport switched to send/receive with the mouse:
  // each gives the CLI's rows, and send/receive's 140 us steps make the small sizes slower.
  await pick(page, 'preset', '2 x p5 H100 (EFA 32 x 100G)');
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  const p5Path = path.join(hwDir, 'h100x16_p5_efa.json');
  check(sameRows(panel.rows, cliRows(cli, p5Path, 'all_gather', TAB)),
    'Hardware tab: the p5 preset gives the CLI\'s rows for h100x16_p5_efa.json', JSON.stringify(panel).slice(0, 300));
  const rdmaRows = panel.rows;
  await pick(page, 'efa_transport', 'sendrecv');
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  const sendrecvRows = cliRowsEdited(cli, p5Path, { efa_transport: 'sendrecv' }, 'all_gather');
  // The smallest all-gather (256 B: 16 bytes per rank on 16 GPUs) is a ring/LL with one network step:
  // send/receive's LL crossing takes 70 us where RDMA writes take 20, so 50 us more.
  check(sameRows(panel.rows, sendrecvRows) && panel.rows[0].size_bytes === 256 &&
    Math.abs(panel.rows[0].time_us - rdmaRows[0].time_us - 50) < 0.5,
    'Hardware tab: efa_transport sendrecv picked with the mouse gives the CLI\'s rows, 50 us slower at 256 B',
    JSON.stringify(panel).slice(0, 300));
  await page.screenshot({ path: path.join(shots, 'hardware_p5_sendrecv.png') });

  // 3c. Eight p5 nodes, all-reduce: AWS's tuner picks (ring/LL128 at 1 GiB, its map); switched to NCCL's
  // own tuner with the mouse, the rows are the CLI's for that file and 1 GiB runs another protocol.
  await pick(page, 'preset', "8 x p5 H100 (EFA, AWS's tuner)");
  await pick(page, 'collective', 'all_reduce');
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  const p5x8Path = path.join(hwDir, 'h100x64_p5_efa.json');
  const awsRows = cliRows(cli, p5x8Path, 'all_reduce', TAB);
  check(sameRows(panel.rows, awsRows),
    "Hardware tab: the 8-node p5 preset gives the CLI's all-reduce rows for h100x64_p5_efa.json", JSON.stringify(panel).slice(0, 300));
  const chartRect = await rectOf(page, 'chart'); // the tooltip names AWS's map for the size under the mouse
  await page.mouse.move(chartRect.x + chartRect.w * 0.8, chartRect.y + chartRect.h * 0.5);
  await page.waitForTimeout(150);
  await page.screenshot({ path: path.join(shots, 'hardware_p5_aws_tuner.png') });
  await pick(page, 'nccl_tuner', 'nccl');
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  const ownRows = cliRowsEdited(cli, p5x8Path, { nccl_tuner: 'nccl' }, 'all_reduce');
  const at1G = (rows) => rows.find((r) => r.size_bytes === 1073741824);
  check(sameRows(panel.rows, ownRows) && at1G(awsRows).proto === 'LL128' && at1G(ownRows).proto !== 'LL128',
    'Hardware tab: nccl_tuner nccl picked with the mouse gives the CLI\'s rows; 1 GiB leaves AWS\'s ring/LL128',
    JSON.stringify({ aws: at1G(awsRows), own: at1G(ownRows) }));

  // 3d. The sizes typed with the keyboard (nccl-tests' -b and -e): 1M to 1G is 11 sizes, the CLI's rows for
  // -b 1M -e 1G; a size that is none shows its message and no curve; 8 and 16G typed back.
  await typeInto(page, 'hardware:from', '1M', 8);
  await typeInto(page, 'hardware:to', '1G', 8);
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  check(panel.from === '1M' && panel.to === '1G' && panel.rows.length === 11 &&
    sameRows(panel.rows, cliRowsEdited(cli, p5x8Path, { nccl_tuner: 'nccl' }, 'all_reduce', ['-b', '1M', '-e', '1G'])),
    'Hardware tab: 1M and 1G typed into the size fields give the CLI\'s 11 rows for -b 1M -e 1G',
    JSON.stringify({ from: panel.from, to: panel.to, rows: panel.rows.length }));
  await page.screenshot({ path: path.join(shots, 'hardware_sizes_1M_1G.png') });

  // 3e. Share curve, clicked: the page's address becomes the curve's link; opened in a fresh profile it shows
  // the Hardware tab with the same system (no preset: nccl_tuner was changed), sizes and rows, and the CLI's
  // `collective-perf --link` prints the same rows.
  const shared = panel;
  await clickWidget(page, 'hardware:share');
  const url = await page.evaluate(() => location.href);
  const fresh = await openApp(browser, url);
  await rectOf(fresh.page, 'hardware:share'); // the Hardware tab is open
  const restored = await fresh.page.evaluate(() => window.astrolabe.hardwarePanel());
  const cliLinked = JSON.parse(execFileSync(cli, ['collective-perf', '--link', url, '--json']).toString()).rows;
  check(/#perf=/.test(url) && restored.preset === '(shared link)' && restored.from === '1M' && restored.to === '1G' &&
    sameRows(restored.rows, shared.rows) && sameRows(cliLinked, shared.rows),
    'Hardware tab: Share curve (' + url.length + ' characters) opens in a fresh profile with the same system, sizes ' +
    'and rows, and collective-perf --link prints them', JSON.stringify({ preset: restored.preset, from: restored.from, n: restored.rows.length }));
  await fresh.page.screenshot({ path: path.join(shots, 'hardware_shared_curve.png') });
  check(fresh.errors.length === 0, 'Hardware tab: no script errors in the shared page', fresh.errors.join('\n'));
  await fresh.context.close();
  await typeInto(page, 'hardware:to', '1Q', 8);
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  check(panel.rows.length === 0 && panel.problems.some((p) => /to: '1Q'; a positive size such as 8, 64K, 16G/.test(p)),
    'Hardware tab: a size that is none (1Q) shows the message instead of a curve', JSON.stringify(panel.problems));
  await typeInto(page, 'hardware:from', '8', 8);
  await typeInto(page, 'hardware:to', '16G', 8);
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  check(panel.problems.length === 0 && panel.rows.length === 32, 'Hardware tab: 8 and 16G typed back draw the 32 sizes again',
    JSON.stringify(panel.problems));

  // 3f. A measured nccl-tests output (the open aws_p5 table as nccl-tests prints it; one H100 node, so the
  // first preset is its system) chosen through the file picker the button opens.
  await pick(page, 'preset', 'HGX H100 x8 (NVLS)');
  const logPath = path.resolve('tests/data/nccl_tests_output/aws_p5_h100_1node_allreduce.log');
  const chooseFile = async (file) => {
    const [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 15000 }), clickWidget(page, 'hardware:measured')]);
    await chooser.setFiles(file);
  };
  await chooseFile(logPath);
  await page.waitForFunction(() => window.astrolabe.hardwarePanel().measured !== undefined, null, { timeout: 15000 });
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  const cliMeasured = JSON.parse(execFileSync(cli, ['collective-perf', '--hardware', path.join(hwDir, 'h100x8.json'),
    '--measured', logPath, '--json']).toString());
  check(panel.measured.name === path.basename(logPath) && sameRows(panel.rows, cliMeasured.rows) &&
    panel.rows.every((r, i) => r.measured_us === cliMeasured.rows[i].measured_us) &&
    Math.abs(panel.measured.large.geomean_error - cliMeasured.measured.large.geomean_error) < 1e-6 &&
    panel.measured.small.rows === 17 && panel.type === 'float' && panel.from === '8' && panel.to === '16G',
    'Hardware tab: Compare measured... with an nccl-tests output gives the CLI\'s --measured rows, times and errors (' +
    (100 * panel.measured.large.geomean_error).toFixed(1) + ' % at >= 1 MiB)', JSON.stringify(panel.measured));
  const mChart = await rectOf(page, 'chart'); // the tooltip shows the measured time beside the model's
  await page.mouse.move(mChart.x + mChart.w * 0.85, mChart.y + mChart.h * 0.4);
  await page.waitForTimeout(150);
  await page.screenshot({ path: path.join(shots, 'hardware_measured.png') });
  const urlBefore = await page.evaluate(() => location.href);
  await clickWidget(page, 'hardware:share');
  check(await page.evaluate(() => location.href) === urlBefore,
    'Hardware tab: Share curve is disabled beside a measured table (a link would not carry it)');
  await pick(page, 'collective', 'all_gather');
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  check(panel.rows.length === 0 && panel.problems.some((p) => /busbw\/algbw is 1\.750, nccl-tests' factor for all_gather on 8 ranks is 0\.875.*\(all_reduce on 8 ranks\)/.test(p)),
    'Hardware tab: the measured all-reduce picked as all_gather names the run it is of', JSON.stringify(panel.problems));
  await page.screenshot({ path: path.join(shots, 'hardware_measured_other_op.png') });
  await pick(page, 'collective', 'all_reduce');
  const notTable = path.join(os.tmpdir(), 'astrolabe-notes.txt');
  fs.writeFileSync(notTable, 'nothing measured here\n');
  await chooseFile(notTable);
  await page.waitForFunction(() => /no nccl-tests row/.test(window.astrolabe.problems()), null, { timeout: 15000 })
    .catch(() => {});
  const refused = await page.evaluate(() => ({ msg: window.astrolabe.problems(), panel: window.astrolabe.hardwarePanel() }));
  check(/astrolabe-notes\.txt: no nccl-tests row/.test(refused.msg || '') && refused.panel.measured &&
    refused.panel.measured.name === path.basename(logPath) && refused.panel.rows.length === 32,
    'Hardware tab: a file that is no nccl-tests output is refused with its reason, the measured table kept', JSON.stringify(refused.msg));
  await page.screenshot({ path: path.join(shots, 'hardware_measured_refused.png') });
  await clickWidget(page, 'hardware:clear_measured');
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  check(panel.measured === undefined && panel.rows.length === 32 && panel.rows.every((r) => r.measured_us === undefined),
    'Hardware tab: Clear measured (mouse) takes the table away, the curve stays', JSON.stringify(panel.measured));
  // The same output dropped on the page (a drop event carrying the file, as the browser sends when a file is
  // dragged in from the desktop, which a test cannot do) is set beside the curve too.
  const logText = fs.readFileSync(logPath, 'utf8');
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'dropped_p5.log', { type: 'text/plain' }));
    window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, logText);
  await page.waitForFunction(() => (window.astrolabe.hardwarePanel().measured || {}).name === 'dropped_p5.log', null, { timeout: 15000 });
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  const afterDrop = await page.evaluate(() => window.astrolabe.problems());
  check(sameRows(panel.rows, cliMeasured.rows) && panel.measured.large.rows === 15 && !/no nccl-tests row/.test(afterDrop),
    'Hardware tab: an nccl-tests .log dropped on the page is set beside the curve (the CLI\'s --measured rows), ' +
    'and the earlier refusal leaves the status line', JSON.stringify(panel.measured) + ' ' + afterDrop);
  await clickWidget(page, 'hardware:clear_measured');

  // 3g. nccl_buffsize (NCCL_BUFFSIZE) picked with the mouse on the two-node IB preset: the CLI's rows for
  // the file with nccl_buffsize 16777216 (1 GiB all-reduce), which differ from the default's; back to the
  // default, the preset again.
  await pick(page, 'preset', '2 x HGX H100 (IB 8 x 400G)');
  const bufDefault = (await page.evaluate(() => window.astrolabe.hardwarePanel())).rows;
  await pick(page, 'nccl_buffsize', '16M');
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  const buf16 = cliRowsEdited(cli, path.join(hwDir, 'h100x16.json'), { nccl_buffsize: 16777216 }, 'all_reduce');
  check(sameRows(panel.rows, buf16) && !sameRows(buf16, bufDefault),
    'Hardware tab: nccl_buffsize 16M picked with the mouse gives the CLI\'s rows for nccl_buffsize 16777216 (not the default\'s)',
    JSON.stringify(panel.rows.slice(-1)));
  await page.screenshot({ path: path.join(shots, 'hardware_buffsize_16M.png') });
  await pick(page, 'nccl_buffsize', 'default (4M)');
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  check(panel.preset === '2 x HGX H100 (IB 8 x 400G)' && sameRows(panel.rows, bufDefault),
    'Hardware tab: nccl_buffsize back to its default gives the preset\'s rows again', panel.preset);

  // 3h. Fit net_efficiency: the two-node IB preset with rings forced (nccl_algo ring picked with the mouse),
  // beside a table the CLI itself gives at 0.85 of line rate (what a cluster at that fraction measures, if
  // the model is right about the rest), saved as tests/data/nccl's CSV form and chosen in the file picker.
  const h100x16 = path.join(hwDir, 'h100x16.json');
  await pick(page, 'nccl_algo', 'ring');
  const made = cliRowsEdited(cli, h100x16, { nccl_algo: 'ring', net_efficiency: 0.85 }, 'all_reduce', ['-b', '1M', '-e', '4G']);
  const ringCsv = path.join(os.tmpdir(), 'astrolabe-ring-0.85.csv');
  fs.writeFileSync(ringCsv, 'size_bytes,count,type,redop,time_us,algbw_gbs,busbw_gbs\n' +
    made.map((r) => [r.size_bytes, r.size_bytes / 4, 'float', 'sum', r.time_us, r.algbw_gbs, r.busbw_gbs].join(',')).join('\n') + '\n');
  await chooseFile(ringCsv);
  await page.waitForFunction(() => window.astrolabe.hardwarePanel().measured !== undefined, null, { timeout: 15000 });
  await clickWidget(page, 'hardware:fit');
  await page.waitForFunction(() => window.astrolabe.hardwarePanel().fit !== undefined, null, { timeout: 15000 });
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  const ringHw = path.join(os.tmpdir(), 'astrolabe-h100x16-ring.json');
  fs.writeFileSync(ringHw, JSON.stringify(Object.assign(JSON.parse(fs.readFileSync(h100x16, 'utf8')), { nccl_algo: 'ring' })));
  const cliFit = JSON.parse(execFileSync(cli, ['collective-perf', '--hardware', ringHw, '--measured', ringCsv,
    '--fit', path.join(os.tmpdir(), 'astrolabe-fitted.json'), '--json']).toString());
  check(panel.fit.net_efficiency === cliFit.fit.net_efficiency && Math.abs(cliFit.fit.net_efficiency - 0.85) < 0.0015 &&
    panel.hardware.net_efficiency === cliFit.fit.net_efficiency && sameRows(panel.rows, cliFit.rows),
    'Hardware tab: Fit net_efficiency (mouse) beside a ring table made at 0.85 sets ' + panel.hardware.net_efficiency +
    ', what collective-perf --fit gives, and its rows', JSON.stringify(panel.fit));
  await page.screenshot({ path: path.join(shots, 'hardware_fit.png') });
  await typeInto(page, 'net_efficiency', '0.7', 12);
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  const at07 = cliRowsEdited(cli, h100x16, { nccl_algo: 'ring', net_efficiency: 0.7 }, 'all_reduce', ['-b', '1M', '-e', '4G']);
  check(panel.hardware.net_efficiency === 0.7 && sameRows(panel.rows, at07) && panel.fit === undefined,
    'Hardware tab: 0.7 typed into net_efficiency gives the CLI\'s rows for net_efficiency 0.7 (and the fit line goes)',
    JSON.stringify(panel.hardware));
  await clickWidget(page, 'hardware:net_efficiency_default');
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  check(panel.hardware.net_efficiency === 0, 'Hardware tab: default (mouse) gives net_efficiency back to the fabric', JSON.stringify(panel.hardware));
  await pick(page, 'nccl_algo', 'auto');
  await clickWidget(page, 'hardware:fit');
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  // Without rings the two nodes run trees and NVLS-tree at these sizes, ring/LL128 at 8-64 MiB only: fewer
  // than the two ring rows the fit needs spend most of their time moving bytes.
  check(/^\S+: [01] of its rows run as rings.*at least 2 are needed/.test(panel.fit_problem || '') &&
    panel.hardware.net_efficiency === 0 && panel.rows.length > 0,
    'Hardware tab: Fit net_efficiency on rows NCCL runs as trees and NVLS-tree is refused with its reason, the description kept',
    JSON.stringify(panel.fit_problem));
  await page.screenshot({ path: path.join(shots, 'hardware_fit_refused.png') });
  await clickWidget(page, 'hardware:clear_measured');

  // 4. An impossible system: A100 has no NVLink SHARP.
  await pick(page, 'preset', 'HGX H100 x8 (NVLS)');
  await pick(page, 'gpu', 'A100-SXM4-40GB');
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  check(panel.rows.length === 0 && panel.problems.some((p) => /nvls: is true but A100-SXM4-40GB has no NVLink SHARP/.test(p)),
    'Hardware tab: A100 with nvls shows the parser\'s message instead of a curve', JSON.stringify(panel.problems));
  await page.screenshot({ path: path.join(shots, 'hardware_problem.png') });
  await clickWidget(page, 'nvls');
  panel = await page.evaluate(() => window.astrolabe.hardwarePanel());
  check(panel.problems.length === 0 && panel.rows.length > 0, 'Hardware tab: unticking nvls (mouse) clears it and draws again',
    JSON.stringify(panel.problems));

  // 5. The scripting API.
  const hw = JSON.parse(fs.readFileSync(path.join(hwDir, 'a100x16_efa.json'), 'utf8'));
  const apiRows = await page.evaluate((h) => window.astrolabe.collectivePerf(h, { op: 'all_reduce', minBytes: '1M', maxBytes: '1G' }), hw);
  check(sameRows(apiRows, cliRows(cli, path.join(hwDir, 'a100x16_efa.json'), 'all_reduce', ['-b', '1M', '-e', '1G'])),
    'collectivePerf() gives the CLI\'s rows (p4de, 1 MiB-1 GiB)');
  const typedRows = await page.evaluate((h) => window.astrolabe.collectivePerf(h, { op: 'reduce_scatter', type: 'half', redop: 'max', maxBytes: '1M' }), hw);
  check(sameRows(typedRows, cliRows(cli, path.join(hwDir, 'a100x16_efa.json'), 'reduce_scatter', ['-e', '1M', '-d', 'half', '-o', 'max'])) &&
    typedRows[0].size_bytes === 256, 'collectivePerf() with type half and redop max gives the CLI\'s -d half -o max rows (from 256 B: 16 ranks x 16 B)',
    JSON.stringify(typedRows.slice(0, 2)));
  const bad = await page.evaluate(() => {
    try { window.astrolabe.collectivePerf({ gpu: 'H100-SMX' }, { type: 'bf16' }); return ''; } catch (e) { return e.message; }
  });
  check(/did you mean 'H100-SXM'/.test(bad) && /type: 'bf16'.*nccl-tests calls it bfloat16/.test(bad),
    'collectivePerf() rejects a misspelt GPU and another name for a type, naming the right spellings', bad);
  check(errors.length === 0, 'Hardware tab: no script errors', errors.join('\n'));
  await context.close();
}

module.exports = { hardwareChecks };
