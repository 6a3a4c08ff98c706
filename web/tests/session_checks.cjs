// Browser checks of the run pipeline (core/session): an internal error during a run (a failed SIM_ASSERT,
// injected through the test hook astro_test_inject_internal_error) shows a message, ends that run, and the
// page keeps drawing and runs the next scenario; a scenario whose times pass the clock's end (2^62 ns)
// ends its run with the CLI's message. The runs are started by clicking the Run button with the mouse, as
// a user would.
'use strict';

const fs = require('fs');
const path = require('path');

// The Run button: the Run window sits at the fixed layout's top right (ui/app_ui.cpp: the scenario panel
// takes max(360, 34 % of the width)); the button is the window's first widget, below its title bar.
function runButton(viewport) {
  const left = Math.max(360, viewport.width * 0.34);
  return { x: left + 8 + 45, y: 19 + 8 + 9 };
}

async function framesDuring(page, ms) {
  return page.evaluate((ms) => new Promise((resolve) => {
    let frames = 0;
    const t0 = performance.now();
    const count = () => {
      frames++;
      if (performance.now() - t0 < ms) requestAnimationFrame(count);
      else resolve(frames);
    };
    requestAnimationFrame(count);
  }), ms);
}

async function sessionChecks(page, check, sampleName, sampleTotalNs) {
  const button = runButton(page.viewportSize());
  const loaded = await page.evaluate((n) => window.astrolabe.loadSample(n), sampleName);
  check(loaded.ok, 'session: sample ' + sampleName + ' loads for the internal-error check', loaded.problems);

  // 1. The injected internal error: the Run click starts the run, the first step fails, the status says so.
  await page.evaluate(() => window.Module._astro_test_inject_internal_error());
  await page.mouse.click(button.x, button.y);
  let message = '';
  try {
    await page.waitForFunction(() => /internal error/.test(window.astrolabe.problems()), null, { timeout: 15000 });
    message = await page.evaluate(() => window.astrolabe.problems());
  } catch (e) {
    message = '(no message within 15 s: ' + e.message.split('\n')[0] + ')';
  }
  check(/the run failed: internal error at .*injected by a test/.test(message),
    'session: an internal error during a run ends it with a message', message);
  const phase = await page.evaluate(() => window.Module._astro_step(0));
  check(phase === 4, 'session: the failed run is in phase "failed" (' + phase + ')');
  check(await page.evaluate(() => window.astrolabe.report()) === null, 'session: a failed run leaves no report');
  const dir = path.join(__dirname, '..', '..', 'build', 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, 'session_internal_error.png') });

  // 2. The page lives on: it keeps drawing, and the next Run click runs the sample to its usual total.
  const frames = await framesDuring(page, 500);
  check(frames >= 5, 'session: the page keeps drawing after the internal error (' + frames + ' frames in 0.5 s)');
  await page.mouse.click(button.x, button.y);
  let total = null;
  try {
    await page.waitForFunction(() => { const r = window.astrolabe.report(); return r && r.complete; }, null,
      { timeout: 30000 });
    total = await page.evaluate(() => window.astrolabe.report().total_ns);
  } catch (e) {
    total = '(no report: ' + (await page.evaluate(() => window.astrolabe.problems())) + ')';
  }
  check(total === sampleTotalNs, 'session: the next Run click runs ' + sampleName + ' to ' + sampleTotalNs + ' ns (' +
    total + ')');

  // 3. An input whose times pass the clock's end (a link of 1e-300 GB/s, tests/bad_inputs): the Run click
  // ends with the CLI's message, not an internal error, and the page keeps drawing.
  const nearZero = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'tests', 'bad_inputs', 'files',
    'scen_bandwidth_near_zero.json'), 'utf8'));
  const loadedNz = await page.evaluate((sc) => window.astrolabe.loadScenario(sc), nearZero);
  await page.mouse.click(button.x, button.y);
  let nz = '';
  try {
    await page.waitForFunction(() => /2\^62 ns/.test(window.astrolabe.problems()), null, { timeout: 15000 });
    nz = await page.evaluate(() => window.astrolabe.problems());
  } catch (e) {
    nz = '(no message within 15 s: ' + (await page.evaluate(() => window.astrolabe.problems())) + ')';
  }
  const framesNz = await framesDuring(page, 500);
  check(loadedNz.ok && /the simulated time would pass 2\^62 ns \(about 146 years\)/.test(nz) &&
    !/internal error/.test(nz) && framesNz >= 5,
  'session: a bandwidth of 1e-300 GB/s ends the run with the clock-limit message, and the page keeps drawing (' +
    framesNz + ' frames in 0.5 s)', nz);
}

module.exports = { sessionChecks };
