// The app driven as a person drives it: the real mouse and keyboard (playwright's page.mouse and
// page.keyboard) on the ImGui widgets, at the places the fixed layout puts them (ui/app_ui.cpp), with
// window.astrolabe.viewState() read back to see what the UI now shows. Covers the sample picker, the Run
// button, wheel scrolling and zooming by one notch, dragging the timeline, the Network drawing's hover,
// editing a field with the keyboard and comparing two runs. Saves a screenshot of every results panel.
'use strict';
const fs = require('fs');
const path = require('path');
const { selectAll } = require('./frames.cjs');

// Fixed places (1280 x 800 page): the Scenario window is 435 px wide, Run is 150 px high (ui/app_ui.cpp).
// ImGui's default font is 7 px per character and 13 px high; frames are 19 px high.
const PICKER = { x: 110, y: 36 };
const LOAD_SAMPLE = { x: 278, y: 36 };
const PICKER_ITEM_Y = (i) => 60 + 17 * i; // the open combo's rows
const RUN = { x: 487, y: 36 };
const BANDWIDTH_0 = { x: 298, y: 248 }; // Network table, dimension 0, GB/s
// The results tabs' centres, as drawn (build/screenshots/summary.png).
const TABS = { Summary: 471, Collectives: 547, Timeline: 627, 'Critical path': 714, Network: 797, Compare: 859,
  Warnings: 924 };
const tabCentre = (name) => ({ x: TABS[name], y: 187 });

const settle = (page, ms = 250) => page.waitForTimeout(ms);
// Waits (up to 5 s) until the UI shows what `pred(viewState)` wants: frames are slow in a software-rendered
// headless browser on a busy machine, so a fixed pause is not enough. Resolves to whether it happened.
function untilView(page, pred, arg) {
  return page.waitForFunction(([src, a]) => new Function('v', 'a', 'return ' + src)(window.astrolabe.viewState(), a),
    [pred, arg], { timeout: 5000, polling: 50 }).then(() => true, () => false);
}
// A click as a hand makes it: move there, then press and release in later frames (ImGui 1.86 reads the
// pointer once a frame, and a press in the frame the pointer arrives can miss the widget).
async function click(page, x, y) {
  await page.mouse.move(x, y);
  await page.waitForTimeout(100);
  await page.mouse.down();
  await page.waitForTimeout(100);
  await page.mouse.up();
  await page.waitForTimeout(100);
}
const view = (page) => page.evaluate(() => window.astrolabe.viewState());

async function clickRunAndWait(page) {
  const before = (await view(page)).runs_done;
  await click(page, RUN.x, RUN.y);
  await page.waitForFunction((n) => window.astrolabe.viewState().runs_done > n, before, { timeout: 60000 });
  await settle(page);
}

async function openTab(page, name) {
  const c = tabCentre(name);
  await click(page, c.x, c.y);
  const ok = await untilView(page, 'v.results_tab === a', name);
  await settle(page);
  return ok;
}

async function pickSample(page, index) {
  await click(page, PICKER.x, PICKER.y);
  await settle(page);
  await click(page, 120, PICKER_ITEM_Y(index));
  await untilView(page, 'v.sample !== null');
  await settle(page, 400); // several frames: the pick must survive them (it used to be reset every frame)
}

async function runMouseChecks({ browser, base, check, openApp, shotsDir }) {
  fs.mkdirSync(shotsDir, { recursive: true });
  const shot = (page, name) => page.screenshot({ path: path.join(shotsDir, name + '.png') });
  const { context, page, errors } = await openApp(browser, base);
  await settle(page, 500);
  const samples = await page.evaluate(() => window.astrolabe.samples());

  // 1. The picker: click it, click each sample, press Load sample; the loaded scenario is that sample.
  for (let i = samples.length - 1; i >= 0; i--) { // last first: the page opened on the first
    await pickSample(page, i);
    const picked = (await view(page)).sample;
    await click(page, LOAD_SAMPLE.x, LOAD_SAMPLE.y);
    await settle(page);
    const v = await view(page);
    check(picked === samples[i] && v.scenario_source === 'sample ' + samples[i],
      'picker: clicking ' + samples[i] + ' and Load sample loads it (picked ' + picked + ', loaded ' +
      v.scenario_source + ')');
  }

  // 2. Run the largest sample with the Run button; wheel-scroll its collectives table by one notch.
  const gpt = samples.indexOf('gpt_dp2tp2pp2_flow');
  await pickSample(page, gpt >= 0 ? gpt : 0);
  await click(page, LOAD_SAMPLE.x, LOAD_SAMPLE.y);
  await settle(page, 500);
  // Its two Switch dimensions: the network table's columns used to shrink frame by frame ("Switc").
  const panel = { x: 0, y: 0, width: 435, height: 800 };
  const early = await page.screenshot({ clip: panel });
  await settle(page, 3000);
  check(early.equals(await page.screenshot({ clip: panel })), 'the scenario panel is unchanged after 3 s of idle frames');
  await clickRunAndWait(page);
  check(await openTab(page, 'Summary'), 'the Summary tab opens with a click');
  await shot(page, 'summary');
  check(await openTab(page, 'Collectives'), 'the Collectives tab opens with a click');
  const collectives = (await page.evaluate(() => window.astrolabe.report())).collectives.length;
  await page.mouse.move(850, 400);
  await settle(page);
  await page.mouse.wheel(0, 100); // one notch down, as Chromium reports it: 100 px
  await untilView(page, 'v.table_scroll_y > 0');
  await settle(page);
  const scrolled = await view(page);
  const rows = scrolled.table_scroll_y / scrolled.table_row_h;
  // ImGui scrolls 5 text lines per notch: about 3-4 table rows; before the fix it was 100 notches (the end).
  check(rows >= 1 && rows <= 10 && rows * 2 < collectives,
    'one wheel notch scrolls the collectives table down by ' + rows.toFixed(1) + ' rows of ' + collectives);
  await shot(page, 'collectives');
  await page.mouse.wheel(0, -100);
  await untilView(page, 'v.table_scroll_y === 0');
  check((await view(page)).table_scroll_y === 0, 'one notch up scrolls it back to the top');

  // 3. The timeline: one notch up zooms in by 0.8 around the pointer; one down zooms back out; a drag pans.
  check(await openTab(page, 'Timeline'), 'the Timeline tab opens with a click');
  const fit = await view(page);
  await page.mouse.move(900, 400);
  await settle(page);
  await page.mouse.wheel(0, -100);
  await untilView(page, 'v.tl_width_ns !== a', fit.tl_width_ns);
  await settle(page);
  const zoomed = await view(page);
  const factor = zoomed.tl_width_ns / fit.tl_width_ns;
  check(factor > 0.7 && factor < 0.9, 'one wheel notch up zooms the timeline in by ' + factor.toFixed(3) +
    ' (' + fit.tl_width_ns + ' ns -> ' + zoomed.tl_width_ns.toFixed(0) + ' ns)');
  await page.mouse.move(900, 400);
  await page.mouse.down();
  for (let x = 890; x >= 700; x -= 10) await page.mouse.move(x, 400);
  await page.mouse.up();
  await untilView(page, 'v.tl_start_ns !== a', zoomed.tl_start_ns);
  await settle(page);
  const panned = await view(page);
  check(panned.tl_start_ns > zoomed.tl_start_ns && panned.tl_width_ns === zoomed.tl_width_ns,
    'dragging the timeline left by 200 px pans it later in time (' + zoomed.tl_start_ns.toFixed(0) + ' -> ' +
    panned.tl_start_ns.toFixed(0) + ' ns)');
  await shot(page, 'timeline');
  await page.mouse.move(900, 400);
  await settle(page);
  await page.mouse.wheel(0, 100);
  await untilView(page, 'v.tl_width_ns !== a', panned.tl_width_ns);
  await settle(page);
  const out = await view(page);
  check(Math.abs(out.tl_width_ns / zoomed.tl_width_ns - 1.25) < 0.01, 'one notch down zooms back out by 1.25');

  // 4. The critical path and the Network drawing (this sample runs the flow model: per-link traffic).
  check(await openTab(page, 'Critical path'), 'the Critical path tab opens with a click');
  check((await view(page)).critical_path_nodes > 0, 'the run has a critical path (' +
    (await view(page)).critical_path_nodes + ' nodes)');
  await shot(page, 'critical_path');
  check(await openTab(page, 'Network'), 'the Network tab opens with a click');
  const net = await view(page);
  check(Array.isArray(net.drawing), 'the Network tab draws the topology');
  if (Array.isArray(net.drawing)) {
    const [x, y, size] = net.drawing;
    await page.mouse.move(x + net.device0[0] * size, y + net.device0[1] * size);
    await untilView(page, 'v.hovered_device >= 0');
    const over = await view(page);
    check(over.hovered_name === 'npu0', 'pointing at NPU 0 in the Network drawing names it (' + over.hovered_name + ')');
  }
  await shot(page, 'network');
  await openTab(page, 'Warnings');
  await shot(page, 'warnings');

  // 5. Edit a field with the keyboard, run again, compare the two runs.
  await pickSample(page, samples.indexOf('allreduce_ring8'));
  await click(page, LOAD_SAMPLE.x, LOAD_SAMPLE.y);
  await settle(page);
  await clickRunAndWait(page);
  const first = (await view(page)).latest_total_ns;
  const bw = (await page.evaluate(() => window.astrolabe.scenario())).network.bandwidth[0];
  await click(page, BANDWIDTH_0.x, BANDWIDTH_0.y);
  await settle(page, 100);
  await selectAll(page);
  await page.keyboard.type(String(bw * 2));
  await page.keyboard.press('Enter');
  await settle(page);
  const edited = (await page.evaluate(() => window.astrolabe.scenario())).network.bandwidth[0];
  check(edited === bw * 2, 'typing ' + bw * 2 + ' into the GB/s field sets the bandwidth (now ' + edited + ')');
  await clickRunAndWait(page);
  check(await openTab(page, 'Compare'), 'the Compare tab opens with a click');
  const cmp = await view(page);
  check(cmp.previous_total_ns === first && cmp.latest_total_ns < first,
    'Compare keeps the previous run (' + cmp.previous_total_ns + ' ns) beside the faster one at double ' +
    'bandwidth (' + cmp.latest_total_ns + ' ns)');
  await shot(page, 'compare');
  await click(page, 10, 790); // nothing there: the scenario panel itself
  await shot(page, 'scenario');

  // 6. A share link opened in a fresh page: the picker does not claim a sample that was not loaded.
  const link = await page.evaluate(() => window.astrolabe.shareUrl());
  const fresh = await openApp(browser, link);
  await settle(fresh.page, 500);
  const fv = await view(fresh.page);
  check(fv.scenario_source === 'shared link' && fv.sample === null,
    'after opening a share link the picker names no sample (' + fv.sample + ')');
  await fresh.context.close();
  check(errors.length === 0, 'no script errors while driving the app with the mouse', errors.join('\n'));
  await context.close();
}

module.exports = { runMouseChecks };
