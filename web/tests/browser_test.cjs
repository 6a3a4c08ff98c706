// The browser app end to end in headless Chromium (Debian's, driven by playwright-core):
//  1. the page loads and ImGui draws (the canvas screenshot is not blank);
//  2. every bundled sample run through window.astrolabe gives the native CLI's report, byte for byte apart
//     from the two host-timing fields;
//  3. a share link opened in a fresh browser profile reproduces the run, and the CLI's `run --link` agrees;
//  4. .et files opened through the file input run like the sample they came from;
//  5. Cancel stops a long run with a partial report while the page keeps drawing;
//  6. a corrupt trace gives a message, and the page keeps working afterwards.
// usage: node web/tests/browser_test.cjs WEB_DIR ASTROLABE_CLI SAMPLES_DIR
'use strict';
const { chromium } = require('playwright-core');
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const zlib = require('zlib');
const { serve } = require('../serve.cjs');
const { stageChecks } = require('./stage_checks.cjs');
const { hardwareChecks } = require('./hardware_checks.cjs');
const { openApp } = require('./app_page.cjs');
const { runMouseChecks } = require('./mouse_checks.cjs');
const { sessionChecks } = require('./session_checks.cjs');
const { searchChecks } = require('./search_checks.cjs');
const { rankOrderChecks } = require('./rank_order_checks.cjs');
const { scenarioHardwareChecks } = require('./scenario_hardware_checks.cjs');
const { searchEdgesChecks } = require('./search_edges_checks.cjs');

const [webDir, cli, samplesDir] = process.argv.slice(2);
if (!webDir || !cli || !samplesDir) {
  console.error('usage: node browser_test.cjs WEB_DIR ASTROLABE_CLI SAMPLES_DIR');
  process.exit(2);
}

let failures = 0;
function check(ok, what, detail) {
  console.log((ok ? 'ok   ' : 'FAIL ') + what);
  if (!ok) {
    failures++;
    if (detail) console.log(String(detail).split('\n').slice(0, 30).map((l) => '     ' + l).join('\n'));
  }
}

// The report without `wall_s` and `events_per_s`, the only fields that measure the host.
const stripHost = (text) => text.split('\n').filter((l) => !/"(wall_s|events_per_s)"/.test(l)).join('\n');

function firstDifference(a, b) {
  const x = a.split('\n'), y = b.split('\n');
  for (let i = 0; i < Math.max(x.length, y.length); i++)
    if (x[i] !== y[i]) return 'line ' + (i + 1) + ':\n  browser: ' + x[i] + '\n  native:  ' + y[i];
  return '';
}

// JSON with keys sorted, for comparing objects regardless of key order.
function canonical(v) {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k])]));
  return v;
}

function nativeReport(args) {
  const out = path.join(os.tmpdir(), 'astrolabe-native-' + process.pid + '.json');
  execFileSync(cli, ['run', ...args, '--quiet', '--report', out]);
  const text = fs.readFileSync(out, 'utf8');
  fs.unlinkSync(out);
  return text;
}

// Distinct colours in a PNG (8-bit RGB or RGBA, non-interlaced, as Chromium writes screenshots).
function pngColours(buf) {
  let pos = 8, width = 0, height = 0, channels = 4;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos), type = buf.toString('ascii', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      channels = data[9] === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    pos += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const prev = Buffer.alloc(stride), cur = Buffer.alloc(stride);
  const colours = new Set();
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? cur[i - channels] : 0, b = prev[i], c = i >= channels ? prev[i - channels] : 0;
      let p = a;
      if (f === 0) p = 0;
      else if (f === 2) p = b;
      else if (f === 3) p = (a + b) >> 1;
      else if (f === 4) {
        const pa = Math.abs(b - c), pb = Math.abs(a - c), pc = Math.abs(a + b - 2 * c);
        p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      cur[i] = (line[i] + p) & 255;
    }
    for (let x = 0; x < width; x += 2) colours.add(cur.readUIntBE(x * channels, 3));
    cur.copy(prev);
  }
  return colours.size;
}

(async () => {
  const server = await serve(webDir);
  const base = 'http://127.0.0.1:' + server.address().port + '/';
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const { context, page, errors } = await openApp(browser, base);

    // 1. ImGui drew: a blank canvas is one colour; the panels with their text and widgets give dozens.
    await page.waitForTimeout(500);
    const shot = await page.screenshot();
    const colours = pngColours(shot);
    check(colours > 20, 'the page draws the ImGui panels (' + colours + ' distinct colours on screen)');
    const version = await page.evaluate(() => window.astrolabe.version);
    check(typeof version === 'string' && version.length > 0, 'window.astrolabe.version is ' + version);

    // 2. Every bundled sample: the browser's report is the CLI's.
    const samples = await page.evaluate(() => window.astrolabe.samples());
    const onDisk = fs.readdirSync(samplesDir).filter((d) => fs.existsSync(path.join(samplesDir, d, 'scenario.json')));
    check(JSON.stringify(samples) === JSON.stringify(onDisk.sort()), 'the app bundles every sample: ' + samples.join(', '));
    for (const name of samples) {
      const loaded = await page.evaluate((n) => window.astrolabe.loadSample(n), name);
      check(loaded.ok, 'sample ' + name + ' loads without problems', loaded.problems);
      const scenario = await page.evaluate(() => window.astrolabe.scenario());
      const onFile = JSON.parse(fs.readFileSync(path.join(samplesDir, name, 'scenario.json'), 'utf8'));
      check(JSON.stringify(canonical(scenario)) === JSON.stringify(canonical(onFile)),
        'scenario() is the sample\'s scenario.json (' + name + ')');
      await page.evaluate(() => window.astrolabe.run());
      const browserText = await page.evaluate(() => window.astrolabe.reportText());
      const nativeText = nativeReport(['--scenario', path.join(samplesDir, name, 'scenario.json')]);
      const a = stripHost(browserText), b = stripHost(nativeText);
      check(a === b, 'sample ' + name + ': browser report equals the native CLI report', firstDifference(a, b));
    }

    // 3. Share: the link reproduces the run in a fresh profile, and natively through `run --link`.
    await page.evaluate(() => window.astrolabe.loadSample(window.astrolabe.samples()[0]));
    // An edit the sample does not have, so the link must carry the scenario and not just the sample's name.
    const edited = await page.evaluate(() => {
      const s = window.astrolabe.scenario();
      s.system['preferred-dataset-splits'] = 2;
      s.network.bandwidth[0] = 25;
      return window.astrolabe.loadScenario(s);
    });
    check(edited.ok, 'an edited scenario loads through loadScenario()', edited.problems);
    const editedReport = await page.evaluate(async () => (await window.astrolabe.run(), window.astrolabe.reportText()));
    const link = await page.evaluate(() => window.astrolabe.shareUrl());
    check(link.startsWith(base) && /#s=[A-Za-z0-9_-]+$/.test(link), 'shareUrl() gives a link (' + link.length + ' characters)');
    const fresh = await openApp(browser, link);
    await fresh.page.waitForFunction(() => window.astrolabe.reportText().length > 0, null, { timeout: 60000 });
    const sharedReport = await fresh.page.evaluate(() => window.astrolabe.reportText());
    check(stripHost(sharedReport) === stripHost(editedReport), 'the share link, opened in a fresh profile, runs and reproduces the report',
      firstDifference(stripHost(sharedReport), stripHost(editedReport)));
    const sharedScenario = await fresh.page.evaluate(() => window.astrolabe.scenario());
    check(sharedScenario.network.bandwidth[0] === 25, 'the shared scenario carries the edit (bandwidth 25)');
    const viaCli = nativeReport(['--link', link]);
    check(stripHost(viaCli) === stripHost(editedReport), 'the CLI run of the same link (run --link) gives the same report',
      firstDifference(stripHost(viaCli), stripHost(editedReport)));
    check(fresh.errors.length === 0, 'no script errors in the shared page', fresh.errors.join('\n'));
    await fresh.context.close();

    // 4. Opened .et files (several at once) run as embedded traces.
    const first = samples[0];
    const etFiles = fs.readdirSync(path.join(samplesDir, first)).filter((f) => f.endsWith('.et'))
      .map((f) => path.join(samplesDir, first, f));
    await page.evaluate((n) => window.astrolabe.loadSample(n), first);
    await page.setInputFiles('#trace-files', etFiles.reverse()); // any order: the names give the ranks
    await page.waitForFunction((n) => window.astrolabe.scenario().workload.traces &&
      window.astrolabe.scenario().workload.traces.length === n, etFiles.length, { timeout: 30000 });
    await page.evaluate(() => window.astrolabe.run());
    const uploaded = await page.evaluate(() => window.astrolabe.report());
    const sampleNative = JSON.parse(nativeReport(['--scenario', path.join(samplesDir, first, 'scenario.json')]));
    check(uploaded.total_ns === sampleNative.total_ns && uploaded.workload === 'embedded (' + etFiles.length + ' traces)',
      'opened .et files of ' + first + ' run to the sample\'s total (' + uploaded.total_ns + ' ns)');

    // 5. Cancel: a long generated run stops on request with a partial report, and the page kept drawing
    //    frames meanwhile (the run is stepped a slice per frame). Halving-doubling keeps every NPU simulated
    //    (a ring all-reduce of identical NPUs would simulate one and end at once: docs/symmetry.md), and the
    //    congestion model moves its chunks hop by hop over the ring: seconds of work.
    const long = await page.evaluate(() => window.astrolabe.loadScenario({
      workload: { generate: { kind: 'microbench', collective: 'all_reduce', size: '64MiB', npus: 512, repeat: 8 } },
      network: { topology: ['Ring'], npus_count: [512], bandwidth: [50], latency: [500] },
      system: { 'preferred-dataset-splits': 16, 'all-reduce-implementation': ['halvingDoubling'] },
      network_model: 'congestion',
    }));
    check(long.ok, 'a generated 512-NPU microbenchmark scenario loads', long.problems);
    const cancelled = await page.evaluate(async () => {
      let frames = 0;
      const count = () => { frames++; if (frames < 1e6) requestAnimationFrame(count); };
      requestAnimationFrame(count);
      const pending = window.astrolabe.run();
      await new Promise((r) => setTimeout(r, 1500));
      window.astrolabe.cancel();
      const report = await pending;
      return { partial: report.partial, complete: report.complete, frames };
    });
    check(cancelled.partial === true && cancelled.complete === false && cancelled.frames >= 10,
      'Cancel stops a long run with a partial report (' + cancelled.frames + ' frames drawn during 1.5 s of running)');

    await stageChecks(page, { check, cli, stripHost }); // STAGE's plans entered on the generator form

    // 6. A corrupt trace: a message, not a dead page; then the page still runs a sample.
    const bad = path.join(os.tmpdir(), 'corrupt.0.et');
    fs.writeFileSync(bad, Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f, 0x08, 0x01, 0x12]));
    await page.setInputFiles('#trace-files', [bad]);
    await page.waitForFunction(() => window.astrolabe.scenario().workload.traces &&
      window.astrolabe.scenario().workload.traces[0].name === 'corrupt.0.et', null, { timeout: 30000 });
    let message = '';
    try {
      await page.evaluate(() => window.astrolabe.run());
    } catch (e) {
      message = e.message;
    }
    check(/corrupt\.0\.et/.test(message), 'a corrupt trace is refused with a message naming the file', message || '(the run did not fail)');
    const badLink = await page.evaluate(() => window.astrolabe.loadLink(location.origin + '/#s=not-a-scenario'));
    check(!badLink.loaded && /share link/.test(badLink.problems), 'a damaged share link is refused with a message', badLink.problems);
    await page.evaluate((n) => window.astrolabe.loadSample(n), first);
    const after = await page.evaluate(async () => (await window.astrolabe.run()).total_ns);
    check(after === sampleNative.total_ns, 'the page still runs a sample afterwards');
    await sessionChecks(page, check, first, sampleNative.total_ns);
    check(errors.length === 0, 'no script errors in the page', errors.join('\n'));
    await context.close();
    await hardwareChecks({ browser, base, cli, samplesDir, check });
    await rankOrderChecks({ browser, base, cli, check, shotsDir: path.resolve(webDir, '../../screenshots') });
    await scenarioHardwareChecks({ browser, base, cli, check, shotsDir: path.resolve(webDir, '../../screenshots') });
    await runMouseChecks({ browser, base, check, openApp, shotsDir: path.resolve(webDir, '../../screenshots') });
    await searchChecks({ browser, base, cli, samplesDir, check, shotsDir: path.resolve(webDir, '../../screenshots') });
    await searchEdgesChecks({ browser, base, samplesDir, check, shotsDir: path.resolve(webDir, '../../screenshots') });
  } finally {
    await browser.close();
    server.close();
  }
  console.log(failures === 0 ? 'browser tests: all passed' : 'browser tests: ' + failures + ' failed');
  process.exit(failures === 0 ? 0 : 1);
})().catch((e) => {
  console.error('browser tests: ' + (e.stack || e));
  process.exit(1);
});
