// Browser checks of the Search tab's rough edges (issue 17), with the real mouse and keyboard:
//  1. the charts draw their last point whole: after a grid search run to its budget, the best-so-far chart's
//     last dot and every Pareto point lie inside their plot's frame (they sat on the right edge, cut);
//  2. a values list typed once right after Cancel holds exactly what was typed, and a counted number of
//     Backspaces deletes exactly that many characters (a key pressed and released between two frames was
//     lost: ui/input_trickle.h; the search check used to type again up to twice);
//  3. the spec combo shows what a shared link loaded: the bundled spec's name for a link of
//     samples/search/cosmic.json, "shared link" for a spec that is not bundled (it showed quick.json).
// Screenshots: build/screenshots/search_charts.png, search_link_combo.png.
'use strict';
const path = require('path');
const { openApp } = require('./app_page.cjs');
const { rectOf, clickWidget, pick, typeInto, untilTyped } = require('./widgets.cjs');
const { searchLink } = require('./search_checks.cjs');

const state = (page) => page.evaluate(() => window.astrolabe.searchState());
const untilPhase = (page, phases, timeout) => page.waitForFunction(
  (ps) => ps.includes(window.astrolabe.searchState().phase), phases, { timeout, polling: 100 });

// Whether a dot of radius r centred in `dot` lies inside `plot`, clear of its 1 px frame.
const inside = (dot, plot, r) => {
  const cx = dot.x + dot.w / 2, cy = dot.y + dot.h / 2;
  return cx - r >= plot.x + 1 && cx + r <= plot.x + plot.w - 1 && cy - r >= plot.y + 1 && cy + r <= plot.y + plot.h - 1;
};

async function searchEdgesChecks({ browser, base, samplesDir, check, shotsDir }) {
  const { context, page, errors } = await openApp(browser, base);
  await clickWidget(page, 'tab:Search');
  await pick(page, 'search:spec_sample', 'quick.json');
  await clickWidget(page, 'search:load_spec');

  // 1. A grid search of 12 points: its last point is the chart's right end.
  await pick(page, 'search:agent', 'grid');
  await typeInto(page, 'search:budget', '12');
  await clickWidget(page, 'search:run');
  await untilPhase(page, ['done', 'failed'], 60000);
  let s = await state(page);
  await page.mouse.move(20, 780);
  await page.waitForTimeout(200);
  await page.screenshot({ path: path.join(shotsDir, 'search_charts.png') });
  const plot = await rectOf(page, 'search:best_plot');
  const last = await rectOf(page, 'search:best_last');
  check(s.phase === 'done' && s.evaluations === 12 && inside(last, plot, 2) && last.x + last.w / 2 > plot.x + plot.w - 20,
    'Search tab: the best-so-far chart draws its last point whole, inside the frame (centre ' +
    (plot.x + plot.w - last.x - last.w / 2).toFixed(1) + ' px from the right edge)',
    JSON.stringify({ s, plot, last }));
  const scatter = await rectOf(page, 'search:pareto_plot');
  const front = [];
  for (let k = 0; k < s.pareto; k++) front.push(await rectOf(page, 'search:pareto:' + k));
  check(front.length > 0 && front.every((d) => inside(d, scatter, 4.5)),
    'Search tab: the ' + front.length + ' Pareto points are drawn whole inside the scatter\'s frame',
    JSON.stringify({ scatter, front }));

  // 2. Cancel, then type at once (twice over, as the flaky check did after each Cancel).
  await pick(page, 'search:agent', 'random');
  await typeInto(page, 'search:budget', '390');
  for (const text of ['2, 4, 8', '1, 2, 4, 16']) {
    await clickWidget(page, 'search:run');
    await page.waitForFunction(() => window.astrolabe.searchState().evaluations > 0, null, { timeout: 60000 });
    await clickWidget(page, 'search:cancel');
    await untilPhase(page, ['cancelled', 'done'], 10000);
    await typeInto(page, 'search:values:workload.generate.dp', text);
    s = await state(page);
    check(s.phase === 'cancelled' && s.ticked[0] === 'workload.generate.dp: ' + text,
      'Search tab: "' + text + '" typed once into a values list right after Cancel is what the list holds',
      JSON.stringify(s.ticked[0]));
  }
  // Two Backspaces at the end delete exactly "16": "1, 2, 4, 16" -> "1, 2, 4, " -> + "8".
  await clickWidget(page, 'search:values:workload.generate.dp');
  await page.keyboard.press('End');
  for (let i = 0; i < 2; i++) await page.keyboard.press('Backspace');
  await page.keyboard.type('8');
  await page.keyboard.press('Enter');
  await untilTyped(page);
  s = await state(page);
  check(s.ticked[0] === 'workload.generate.dp: 1, 2, 4, 8',
    'Search tab: End, 2 Backspaces and "8" turn "1, 2, 4, 16" into "1, 2, 4, 8" (no key lost)', JSON.stringify(s.ticked[0]));
  check(errors.length === 0, 'Search tab edges: no script errors', errors.join('\n'));
  await context.close();

  // 3. Shared links: a bundled spec by name, another spec as "shared link".
  const cosmic = path.join(samplesDir, 'search', 'cosmic.json');
  const other = path.join(__dirname, '..', '..', 'bench', 'search_cosmic_network.json');
  const shown = [];
  for (const [file, want] of [[cosmic, 'cosmic.json'], [other, 'shared link']]) {
    const opened = await openApp(browser, searchLink(base, file, 'random', 1, 3));
    await rectOf(opened.page, 'search:run');
    const st = await state(opened.page);
    shown.push(st.spec_combo);
    check(st.spec_combo === want && opened.errors.length === 0,
      'Search tab: a link of ' + path.basename(file) + ' shows "' + st.spec_combo + '" in the spec combo (want "' + want + '")',
      JSON.stringify({ spec_combo: st.spec_combo, errors: opened.errors }));
    if (want === 'shared link') await opened.page.screenshot({ path: path.join(shotsDir, 'search_link_combo.png') });
    await opened.context.close();
  }
}

module.exports = { searchEdgesChecks };
