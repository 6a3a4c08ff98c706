// Browser checks of the Search tab (ui/search_panel.cpp), driven by the real mouse and keyboard on the ImGui
// widgets (their rectangles come from window.astrolabe.widgetRect):
//  1. the tab opens with a click; samples/search/quick.json is picked in its combo and loaded (its base goes
//     into the scenario editor, its seven knobs are ticked);
//  2. agent ga, budget and seed typed in, Search clicked: the search runs to its budget while the page keeps
//     drawing, and the downloaded evaluations.jsonl is byte-identical to `astrolabe search quick.json
//     --agent ga --seed S --budget N`'s, and so is the downloaded evaluations.csv; the two downloaded SVG
//     pictures parse (DOMParser) and hold one dot per successful point and one red dot per Pareto point;
//  3. a click on a Pareto point loads that point's scenario into the editor;
//  4. Share search gives a link that restores the tab (spec, agent, seed, budget) in a fresh profile;
//  5. Cancel mid-run stops the search with a prefix of the CLI's log, and the page keeps running;
//  6. a bad values list typed into a field shows a message naming the knob, and the app still searches;
//  7. samples/search/hardware.json (a hardware description's knobs) loaded and searched by grid gives the
//     CLI's log;
//  8. a measurement, not a check on time: the longest frame while the COSMIC-like benchmark space
//     (bench/search_cosmic_network.json: GPT-3 175B on 1024 NPUs) sets up and simulates its first points,
//     and while samples/search/cosmic.json's workload (128 micro-batches) is set up.
// Screenshots: build/screenshots/search_*.png.
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const zlib = require('zlib');
const { openApp } = require('./app_page.cjs');
const { rectOf, clickWidget, pick, typeInto } = require('./widgets.cjs');

const state = (page) => page.evaluate(() => window.astrolabe.searchState());

// Types a ticked field's values list, once (it was typed again up to twice when a key was lost after a
// Cancel: ImGui 1.86 missed a key pressed and released between two frames; ui/input_trickle.h).
async function typeValues(page, knob, text) {
  await typeInto(page, 'search:values:' + knob, text);
}
const untilPhase = (page, phases, timeout) => page.waitForFunction(
  (ps) => ps.includes(window.astrolabe.searchState().phase), phases, { timeout, polling: 100 });

// `astrolabe search` into a fresh folder; returns the folder.
function nativeSearch(cli, spec, agent, seed, budget) {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'astrolabe-search-'));
  execFileSync(cli, ['search', spec, '--agent', agent, '--seed', String(seed), '--budget', String(budget),
    '--jobs', '1', '--out', out], { stdio: ['ignore', 'ignore', 'ignore'] });
  return out;
}

function nativeLog(cli, spec, agent, seed, budget) {
  return fs.readFileSync(path.join(nativeSearch(cli, spec, agent, seed, budget), 'evaluations.jsonl'));
}

// Clicks a download button; the file's name and bytes.
async function downloadOf(page, widget) {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 15000 }),
    clickWidget(page, widget)]);
  return { name: download.suggestedFilename(), bytes: fs.readFileSync(await download.path()) };
}

// An SVG text parsed by the browser: whether it parsed, and its circles' radii.
const svgCircles = (page, text) => page.evaluate((t) => {
  const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
  const parsed = !doc.querySelector('parsererror') && doc.documentElement.nodeName === 'svg';
  return { parsed, radii: [...doc.querySelectorAll('circle')].map((c) => c.getAttribute('r')) };
}, text);

async function searchChecks({ browser, base, cli, samplesDir, check, shotsDir }) {
  fs.mkdirSync(shotsDir, { recursive: true });
  const { context, page, errors } = await openApp(browser, base);
  const quick = path.join(samplesDir, 'search', 'quick.json');
  const AGENT = 'ga', SEED = 5, BUDGET = 40;

  // 1. Open the tab, pick quick.json and load it.
  await clickWidget(page, 'tab:Search');
  await rectOf(page, 'search:load_spec');
  await page.screenshot({ path: path.join(shotsDir, 'search_empty.png') });
  await pick(page, 'search:spec_sample', 'quick.json');
  await clickWidget(page, 'search:load_spec');
  let s = await state(page);
  const scenario = await page.evaluate(() => window.astrolabe.scenario());
  const quickSpec = JSON.parse(fs.readFileSync(quick, 'utf8'));
  check(s.ticked.length === quickSpec.knobs.length && s.ticked[0] === 'workload.generate.dp: 1, 2, 4, 8, 16' &&
    JSON.stringify(scenario.network.bandwidth) === JSON.stringify(quickSpec.base.network.bandwidth) &&
    scenario.workload.generate.layers === quickSpec.base.workload.generate.layers,
  'Search tab: quick.json loaded by mouse ticks its ' + quickSpec.knobs.length + ' knobs and puts its base in the editor',
  JSON.stringify(s) + '\n' + JSON.stringify(scenario));

  // 2. Agent, budget and seed with the mouse and keyboard; Search; the downloaded log is the CLI's.
  await pick(page, 'search:agent', AGENT);
  await typeInto(page, 'search:budget', String(BUDGET));
  await typeInto(page, 'search:seed', String(SEED));
  await clickWidget(page, 'search:run');
  const frames = await page.evaluate(() => new Promise((resolve) => {
    let n = 0;
    const count = () => {
      n++;
      if (window.astrolabe.searchState().phase === 'running') requestAnimationFrame(count); else resolve(n);
    };
    requestAnimationFrame(count);
  }));
  s = await state(page);
  check(s.phase === 'done' && s.evaluations === BUDGET && s.agent === AGENT && s.seed === SEED,
    'Search tab: a ' + AGENT + ' search of ' + BUDGET + ' points runs to its budget (' + frames +
    ' frames drawn while it ran)', JSON.stringify(s));
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 15000 }),
    clickWidget(page, 'search:download')]);
  const got = fs.readFileSync(await download.path());
  const nativeDir = nativeSearch(cli, quick, AGENT, SEED, BUDGET);
  const want = fs.readFileSync(path.join(nativeDir, 'evaluations.jsonl'));
  check(download.suggestedFilename() === 'evaluations.jsonl' && got.equals(want),
    'Search tab: the downloaded evaluations.jsonl equals `astrolabe search quick.json --agent ' + AGENT + ' --seed ' +
    SEED + ' --budget ' + BUDGET + '` byte for byte (' + got.length + ' bytes)',
    'browser: ' + got.toString().split('\n')[0] + '\nnative:  ' + want.toString().split('\n')[0]);
  // The CSV and the two pictures, clicked like the log: the CSV is the CLI's byte for byte; the pictures
  // parse and hold a dot (r 2, r 2.5) per successful point and a red dot (r 4) per Pareto point.
  const csv = await downloadOf(page, 'search:download_csv');
  const wantCsv = fs.readFileSync(path.join(nativeDir, 'evaluations.csv'));
  check(csv.name === 'evaluations.csv' && csv.bytes.equals(wantCsv),
    'Search tab: the downloaded evaluations.csv equals the CLI\'s byte for byte (' + csv.bytes.length + ' bytes, ' +
    (csv.bytes.toString().split('\n').length - 2) + ' rows)',
    'browser: ' + csv.bytes.toString().split('\n').slice(0, 2).join(' | ') + '\nnative:  ' +
    wantCsv.toString().split('\n').slice(0, 2).join(' | '));
  const okPoints = got.toString().trim().split('\n').filter((l) => JSON.parse(l).status === 'ok').length;
  for (const [widget, file, dot] of [['search:download_best_svg', 'best_so_far.svg', '2'],
    ['search:download_pareto_svg', 'pareto.svg', '2.5']]) {
    const svg = await downloadOf(page, widget);
    const c = await svgCircles(page, svg.bytes.toString());
    const dots = c.radii.filter((r) => r === dot).length, front = c.radii.filter((r) => r === '4').length;
    const wantFront = file === 'pareto.svg' ? s.pareto : 0;
    check(svg.name === file && c.parsed && okPoints > 0 && dots === okPoints && front === wantFront &&
      svg.bytes.equals(fs.readFileSync(path.join(nativeDir, file))),
    'Search tab: the downloaded ' + file + ' parses, has ' + dots + ' dots for ' + okPoints + ' successful points' +
      (wantFront ? ' and ' + front + ' Pareto points' : '') + ', and equals the CLI\'s',
    JSON.stringify({ name: svg.name, parsed: c.parsed, dots, front, okPoints, wantFront }));
  }
  await page.mouse.move(20, 780);
  await page.waitForTimeout(200);
  await page.screenshot({ path: path.join(shotsDir, 'search_done.png') });

  // 3. A Pareto point clicked: its scenario goes into the editor.
  const before = await page.evaluate(() => JSON.stringify(window.astrolabe.scenario()));
  const pt = await rectOf(page, 'search:pareto:0');
  await page.mouse.move(pt.x + 3, pt.y + 3);
  await page.waitForTimeout(200);
  await page.screenshot({ path: path.join(shotsDir, 'search_hover.png') });
  await page.mouse.down();
  await page.waitForTimeout(80);
  await page.mouse.up();
  await page.waitForTimeout(200);
  s = await state(page);
  const after = await page.evaluate(() => window.astrolabe.scenario());
  const source = (await page.evaluate(() => window.astrolabe.viewState())).scenario_source;
  check(s.selected >= 0 && source === 'search point #' + s.selected && JSON.stringify(after) !== before,
    'Search tab: clicking the cheapest Pareto point loads its scenario into the editor (' + source + ')',
    JSON.stringify({ selected: s.selected, source }));

  // 4. Share search: the link restores the tab in a fresh profile.
  await clickWidget(page, 'search:share');
  const url = await page.evaluate(() => location.href);
  const fresh = await openApp(browser, url);
  await rectOf(fresh.page, 'search:run'); // the Search tab is open
  const restored = await state(fresh.page);
  const mine = await state(page);
  check(/#search=/.test(url) && restored.agent === AGENT && restored.seed === SEED && restored.budget === BUDGET &&
    JSON.stringify(restored.ticked) === JSON.stringify(mine.ticked) && restored.constraints === mine.constraints,
  'Search tab: the Share search link (' + url.length + ' characters) restores spec, agent, seed and budget in a fresh profile',
  JSON.stringify(restored));
  await fresh.page.screenshot({ path: path.join(shotsDir, 'search_shared.png') });
  check(fresh.errors.length === 0, 'Search tab: no script errors in the shared page', fresh.errors.join('\n'));
  await fresh.context.close();

  // 5. Cancel mid-run: a long random search stops with a prefix of the CLI's log; frames kept coming while
  //    it ran. Points are logged a batch at a time (the random agent proposes 32), so Cancel comes after the
  //    first batch is in. Since the ring fast path a quick.json point takes a few ms, so the first batch
  //    may be in after 3 or 4 frames: this asks only that it did not land in the click's own frame; that the
  //    page keeps drawing through long points is checked on the heavy spaces of section 7.
  await pick(page, 'search:agent', 'random');
  await typeInto(page, 'search:budget', '390');
  await clickWidget(page, 'search:run');
  const during = await page.evaluate(() => new Promise((resolve) => {
    let n = 0;
    const count = () => {
      n++;
      const st = window.astrolabe.searchState();
      if (st.phase === 'running' && st.evaluations === 0) requestAnimationFrame(count); else resolve(n);
    };
    requestAnimationFrame(count);
  }));
  await clickWidget(page, 'search:cancel');
  await untilPhase(page, ['cancelled', 'done'], 10000).catch(() => {});
  s = await state(page);
  const [partial] = await Promise.all([page.waitForEvent('download', { timeout: 15000 }),
    clickWidget(page, 'search:download')]);
  const prefix = fs.readFileSync(await partial.path());
  const full = nativeLog(cli, quick, 'random', SEED, 390);
  check(s.phase === 'cancelled' && s.evaluations > 0 && s.evaluations < 390 && during >= 2 &&
    prefix.length > 0 && full.subarray(0, prefix.length).equals(prefix),
  'Search tab: Cancel stops a running search with a prefix of the CLI\'s log (' + s.evaluations + ' of 390 points; ' +
    during + ' frames drawn before the first batch was in)', JSON.stringify(s));
  await page.screenshot({ path: path.join(shotsDir, 'search_cancelled.png') });

  // 6. A bad values list: a message naming the knob, in the tab; then a good search runs again.
  await typeValues(page, 'workload.generate.dp', '1, 2,');
  await clickWidget(page, 'search:run');
  s = await state(page);
  check(s.phase === 'failed' && /knob workload\.generate\.dp: values/.test(s.message),
    'Search tab: a broken values list shows a message naming the knob', s.message);
  await page.screenshot({ path: path.join(shotsDir, 'search_bad_values.png') });
  await typeValues(page, 'workload.generate.dp', '1, 2, 4, 8, 16');
  await typeInto(page, 'search:budget', '10');
  await clickWidget(page, 'search:run');
  await untilPhase(page, ['done', 'failed'], 60000).catch(() => {});
  s = await state(page);
  check(s.phase === 'done' && s.evaluations === 10, 'Search tab: after the message the tab searches again (10 points)',
    JSON.stringify(s));

  // 7. samples/search/hardware.json: a hardware description's knobs. Picked and loaded by mouse, a grid
  // search over its 48 points gives the CLI's log byte for byte (network costs of a hardware base included).
  const hwSpecFile = path.join(samplesDir, 'search', 'hardware.json');
  await pick(page, 'search:spec_sample', 'hardware.json');
  await clickWidget(page, 'search:load_spec');
  await pick(page, 'search:agent', 'grid');
  await typeInto(page, 'search:budget', '100');
  await clickWidget(page, 'search:run');
  await untilPhase(page, ['done', 'failed', 'cancelled'], 120000).catch(() => {});
  s = await state(page);
  const hwLog = await downloadOf(page, 'search:download');
  const hwWant = nativeLog(cli, hwSpecFile, 'grid', s.seed, 100);
  check(s.phase === 'done' && s.evaluations === 48 && hwLog.bytes.equals(hwWant) &&
    /"network_cost":44400\.0,/.test(hwLog.bytes.toString().split('\n')[0]),
  'Search tab: hardware.json (NICs and their speed as knobs) searched by grid gives the CLI\'s 48 lines, ' +
    'the first priced 44400 as derived by hand', JSON.stringify(s) + '\n' + hwLog.bytes.toString().split('\n')[0]);
  await page.mouse.move(20, 780);
  await page.waitForTimeout(200);
  await page.screenshot({ path: path.join(shotsDir, 'search_hardware.png') });
  check(errors.length === 0, 'Search tab: no script errors', errors.join('\n'));
  await context.close();
  await frameMeasurement({ browser, base, check, shotsDir });
}

// A search link (docs/browser.md) for a spec file (or a spec object), agent, seed and budget.
function searchLink(base, specFile, agent, seed, budget) {
  const spec = typeof specFile === 'string' ? JSON.parse(fs.readFileSync(specFile, 'utf8')) : specFile;
  const link = { schema: 'astrolabe.search-link/1', spec, agent, seed, budget };
  return base + '#search=' + zlib.deflateRawSync(Buffer.from(JSON.stringify(link)), { level: 9 }).toString('base64url');
}

// 8. The longest frame while a search runs, printed for docs/search.md; the page must keep drawing. At most
//    20 s a space, then Cancel. Two spaces of GPT-3 175B, DP 16 x TP 8 x PP 8 on 1024 NPUs (the first point
//    generates the workload, every point builds 16 to 512 NPUs' graphs and simulates millions of events):
//    the benchmark's (bench/search_cosmic_network.json, one micro-batch per replica) and
//    samples/search/cosmic.json's base with only its network knobs (128 micro-batches: a stage's trace is
//    about 1 s natively, the symmetry's group check 80 ms, both cut into pieces of a few ms).
async function frameMeasurement({ browser, base, check, shotsDir }) {
  const bench = path.join(__dirname, '..', '..', 'bench', 'search_cosmic_network.json');
  const cosmic = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'samples', 'search', 'cosmic.json'), 'utf8'));
  cosmic.knobs = cosmic.knobs.filter((k) => k.path.startsWith('network.'));
  cosmic.constraints = [];
  for (const [name, spec, shot] of [['the COSMIC-like benchmark space', bench, 'search_cosmic.png'],
    ['cosmic.json\'s workload (network knobs)', cosmic, 'search_cosmic_sample.png']]) {
    const { context, page, errors } = await openApp(browser, searchLink(base, spec, 'random', 1, 3));
    await rectOf(page, 'search:run');
    const measured = page.evaluate((capMs) => new Promise((resolve) => {
      let last = performance.now(), t0 = 0, longest = 0, frames = 0, over100 = 0, over50 = 0;
      const tick = (now) => {
        const st = window.astrolabe.searchState();
        if (st.phase === 'running') {
          if (!t0) t0 = now;
          else {
            frames++;
            longest = Math.max(longest, now - last);
            over100 += now - last > 100;
            over50 += now - last > 50;
          }
        }
        last = now;
        if (t0 && (st.phase !== 'running' || now - t0 > capMs))
          resolve({ frames, longest, over100, over50, elapsed: now - t0, evaluations: st.evaluations, phase: st.phase });
        else requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    }), 20000);
    await clickWidget(page, 'search:run');
    const m = await measured;
    const st = await state(page);
    if (st.phase === 'running') await clickWidget(page, 'search:cancel');
    console.log('     measured: longest frame ' + m.longest.toFixed(0) + ' ms (' + m.over100 + ' over 100 ms, ' +
      m.over50 + ' over 50 ms) of ' + m.frames + ' frames in ' + (m.elapsed / 1000).toFixed(1) + ' s of a search of ' +
      name + ' (' + m.evaluations + ' points done; longest set-up piece ' + (st.longest_piece || 'not reported') + ')');
    await page.screenshot({ path: path.join(shotsDir, shot) });
    check(m.frames >= 10 && errors.length === 0,
      'Search tab: the page keeps drawing while ' + name + ' is searched (' + m.frames + ' frames in ' +
      (m.elapsed / 1000).toFixed(1) + ' s)', JSON.stringify(m) + '\n' + errors.join('\n'));
    await context.close();
  }
}

module.exports = { searchChecks, frameMeasurement, searchLink, nativeSearch, downloadOf };
