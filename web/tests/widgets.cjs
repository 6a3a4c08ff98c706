// Finding and clicking the app's widgets by name (window.astrolabe.widgetRect), as a person would: the
// mouse moves over the widget, presses and releases, with frames and short sleeps in between (ImGui reads
// the mouse once per frame and a widget needs a frame of hover before the press).
const { afterFrames } = require('./frames.cjs');

async function rectOf(page, name) {
  await page.waitForFunction((n) => window.astrolabe.widgetRect(n) !== null, name, { timeout: 15000 });
  return page.evaluate((n) => window.astrolabe.widgetRect(n), name);
}

// `dx`: where to press, from the widget's left edge (default: its middle, at most 60 px in).
async function clickWidget(page, name, dx) {
  const r = await rectOf(page, name);
  await page.mouse.move(r.x + (dx === undefined ? Math.min(r.w / 2, 60) : dx), r.y + r.h / 2);
  await page.waitForTimeout(80);
  await afterFrames(page, 2);
  await page.mouse.down();
  await page.waitForTimeout(80);
  await afterFrames(page, 2);
  await page.mouse.up();
  await page.waitForTimeout(150);
  await afterFrames(page, 2);
}

// Opens a combo with the mouse and clicks one of its items.
async function pick(page, combo, item) {
  await clickWidget(page, combo);
  await clickWidget(page, combo + ':' + item);
}

// Until every key and character sent so far has reached ImGui: the app hands them over a frame at a time
// (ui/input_trickle.h), a key press over two frames, so typed text lands some frames after keyboard.type.
async function untilTyped(page) {
  await page.waitForFunction(() => window.astrolabe.viewState().input_pending === 0, null, { timeout: 15000 });
  await afterFrames(page, 2);
}

// Types `text` over the contents of a text or number field: a click, End, Backspace until empty (each press
// is seen: no key is lost any more, so these are counted, not repeated for luck), the text, Enter.
async function typeInto(page, name, text, length = 48) {
  await clickWidget(page, name);
  await page.keyboard.press('End');
  for (let i = 0; i < length; i++) await page.keyboard.press('Backspace');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await untilTyped(page);
}

module.exports = { rectOf, clickWidget, pick, untilTyped, typeInto };
