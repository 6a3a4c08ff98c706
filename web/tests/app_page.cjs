// Opens the app in a fresh browser context (its own storage, so a share link is tested as a stranger opens
// it) at the size the panels are laid out for, and waits for the WebAssembly module. `errors` collects the
// page's script errors for the checks that the app never threw.
async function openApp(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForFunction(() => window.wasmReady === true, null, { timeout: 60000 });
  return { context, page, errors };
}

module.exports = { openApp };
