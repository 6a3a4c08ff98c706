// Waits until the page has drawn `n` more frames. ImGui reads the mouse and keyboard once per frame, so a fixed
// sleep between two input events is too short when the machine is loaded (a frame can take longer than the
// sleep); waiting for frames adapts to the real frame rate. Used next to the sleeps, not instead of them.
async function afterFrames(page, n) {
  await page.evaluate((k) => new Promise((resolve) => {
    let drawn = 0;
    const step = () => (++drawn >= k ? resolve() : requestAnimationFrame(step));
    requestAnimationFrame(step);
  }), n);
}

// Ctrl+A as a person presses it: the modifier held across frames, then A, then the modifier released. Sent
// as one instantaneous chord, ImGui could see the A before the Ctrl on a slow frame and type an "a" instead.
async function selectAll(page) {
  await page.keyboard.down('Control');
  await afterFrames(page, 2);
  await page.keyboard.press('a');
  await afterFrames(page, 2);
  await page.keyboard.up('Control');
  await afterFrames(page, 2);
}

module.exports = { afterFrames, selectAll };
