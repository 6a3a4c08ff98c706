// The page's glue around the wasm app: file pickers, drag and drop, downloads, share links, and the
// scripting API on window.astrolabe (docs/browser.md). Everything simulated happens in C++; this file only
// moves bytes and strings across.
'use strict';

(function () {
  const statusEl = document.getElementById('status');
  const canvas = document.getElementById('canvas');
  let statusTimer = null;

  // A notice at the bottom of the page; errors stay until the next notice.
  function showStatus(text, isError) {
    statusEl.textContent = text;
    statusEl.className = isError ? 'error' : '';
    clearTimeout(statusTimer);
    if (!isError && text) statusTimer = setTimeout(() => { statusEl.textContent = ''; }, 4000);
  }

  // Phases of ui::RunPhase, in its order.
  const PHASES = ['idle', 'loading', 'running', 'done', 'failed', 'cancelled'];
  // The largest file the page reads: wasm32 has 4 GiB in all, and a trace is decoded next to its bytes.
  const MAX_FILE_BYTES = 1024 * 1024 * 1024;

  // Wheel events report pixels, lines or pages (deltaMode); the app wants notches. Recorded before the
  // simulator's own wheel handler runs (this listener is registered first): 100 px, 3 lines or 1 page per
  // notch, the conventions browsers use for one click of a wheel.
  canvas.addEventListener('wheel', (e) => {
    window.astrolabeWheelScale = e.deltaMode === 1 ? 1 / 3 : e.deltaMode === 2 ? 1 : 1 / 100;
  }, { capture: true, passive: true });

  let ready = false;
  const cstr = (p) => Module.UTF8ToString(p);
  function withCString(s, fn) {
    const n = Module.lengthBytesUTF8(s) + 1;
    const p = Module._malloc(n);
    Module.stringToUTF8(s, p, n);
    try { return fn(p); } finally { Module._free(p); }
  }
  function requireReady() {
    if (!ready) throw new Error('astrolabe: the simulator is still loading');
  }
  function problems() { return cstr(Module._astro_problems()); }
  function setMessage(text) { withCString(text, (p) => Module._astro_set_message(p)); }
  // Files the page refuses before the simulator sees them: the message in the UI and the status line.
  function refused(msg) {
    setMessage(msg);
    showStatus(msg, true);
    return { ok: false, loaded: false, problems: msg };
  }
  // 0 loaded, 1 loaded with problems (listed in the scenario panel), 2 refused.
  function loadResult(rc) {
    const out = { ok: rc === 0, loaded: rc !== 2, problems: problems() };
    if (rc === 2) showStatus(out.problems, true);
    return out;
  }

  function loadScenarioText(text, source) {
    return loadResult(withCString(text, (t) => withCString(source, (s) => Module._astro_load_scenario(t, s))));
  }

  // A measured nccl-tests output for the Hardware tab, which sets it beside its curve.
  async function loadMeasured(f) {
    const text = await f.text();
    const r = loadResult(withCString(text, (t) => withCString(f.name, (n) => Module._astro_perf_measured(t, n))));
    if (r.loaded) showStatus('measured ' + f.name + ' set beside the curve');
    return r;
  }

  // Opened or dropped files: one .json is a scenario; one .log, .txt, .out or .csv is a measured nccl-tests
  // output (the Hardware tab's); .et (or .gz) files are traces, one per NPU, ranked by the number in their
  // names (P.0.et, P.1.et, ...).
  async function loadFiles(files) {
    files = Array.from(files);
    if (files.length === 0) return null;
    const tooBig = files.find((f) => f.size > MAX_FILE_BYTES);
    if (tooBig) {
      return refused(tooBig.name + ': ' + (tooBig.size / 2 ** 30).toFixed(1) +
        ' GiB is more than the browser app can hold (1 GiB per file); use the astrolabe CLI for traces this large');
    }
    const measured = files.filter((f) => /\.(log|txt|out|csv)$/i.test(f.name));
    if (measured.length > 0) {
      if (files.length > 1) {
        return refused('open one nccl-tests output (.log, .txt, .out, .csv) on its own');
      }
      return loadMeasured(measured[0]);
    }
    const json = files.filter((f) => f.name.toLowerCase().endsWith('.json'));
    if (json.length > 0) {
      if (files.length > 1) {
        return refused('open one scenario .json on its own, or only .et trace files');
      }
      return loadScenarioText(await json[0].text(), json[0].name);
    }
    showStatus('reading ' + files.length + ' trace file(s)...');
    try {
      for (const f of files) {
        const bytes = new Uint8Array(await f.arrayBuffer());
        const p = Module._malloc(Math.max(1, bytes.length));
        if (!p) throw new Error('out of memory reading ' + f.name);
        Module.HEAPU8.set(bytes, p);
        withCString(f.name, (n) => Module._astro_add_trace(n, p, bytes.length));
        Module._free(p);
      }
    } catch (e) {
      return refused('could not read the files: ' + e.message);
    }
    const r = loadResult(Module._astro_commit_traces());
    if (r.loaded) showStatus('loaded ' + files.length + ' trace file(s)');
    return r;
  }

  function shareUrlFor(fragment) {
    return location.origin + location.pathname + location.search + '#' + fragment;
  }

  // Called from C++ (wasm/bridge.cpp) through window.astrolabeHost.
  window.astrolabeHost = {
    openTraceFiles() { document.getElementById('trace-files').click(); },
    openScenarioFile() { document.getElementById('scenario-file').click(); },
    openMeasuredFile() { document.getElementById('measured-file').click(); },
    download(name, mime, bytes) {
      const url = URL.createObjectURL(new Blob([bytes], { type: mime }));
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    },
    publishShareLink(fragment) {
      const url = shareUrlFor(fragment);
      history.replaceState(null, '', '#' + fragment);
      if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => {});
      showStatus('share link copied');
      return url;
    },
  };

  document.getElementById('trace-files').addEventListener('change', (e) => {
    loadFiles(e.target.files).finally(() => { e.target.value = ''; });
  });
  document.getElementById('scenario-file').addEventListener('change', (e) => {
    loadFiles(e.target.files).finally(() => { e.target.value = ''; });
  });
  // The Hardware tab's picker: whatever file is chosen is read as an nccl-tests output.
  document.getElementById('measured-file').addEventListener('change', (e) => {
    const f = e.target.files[0];
    e.target.value = '';
    if (!f || !ready) return;
    if (f.size > MAX_FILE_BYTES) showStatus(f.name + ': too large for an nccl-tests output', true);
    else loadMeasured(f);
  });
  window.addEventListener('dragover', (e) => { e.preventDefault(); document.body.classList.add('dropping'); });
  window.addEventListener('dragleave', () => document.body.classList.remove('dropping'));
  window.addEventListener('drop', (e) => {
    e.preventDefault();
    document.body.classList.remove('dropping');
    if (ready) loadFiles(e.dataTransfer.files);
  });

  // A run driven from JS: steps in timer slices as well as in the UI's frames, so it also finishes in a
  // hidden tab (where animation frames stop). Resolves with the report object.
  function run() {
    requireReady();
    return new Promise((resolve, reject) => {
      if (Module._astro_run_start() !== 0) {
        reject(new Error(problems()));
        return;
      }
      const tick = () => {
        // A short slice: the UI's frames step the run too, and they must keep their share of the thread.
        const phase = PHASES[Module._astro_step(6)];
        if (phase === 'running') setTimeout(tick, 0);
        else if (phase === 'done' || phase === 'cancelled') resolve(JSON.parse(cstr(Module._astro_report())));
        else reject(new Error(problems()));
      };
      setTimeout(tick, 0);
    });
  }

  function loadFromHash(autorun) {
    if (/(^#|&)search=/.test(location.hash)) { // a whole search: the Search tab opens restored, not run
      loadResult(withCString(location.href, (p) => Module._astro_search_load_link(p)));
      return true;
    }
    if (/(^#|&)perf=/.test(location.hash)) { // a busbw curve: the Hardware tab opens with it
      loadResult(withCString(location.href, (p) => Module._astro_perf_load_link(p)));
      return false; // it holds no scenario: a fresh page still loads the first sample beside it
    }
    if (!/(^#|&)s=/.test(location.hash)) return false;
    const r = loadResult(withCString(location.href, (p) => Module._astro_load_link(p)));
    if (r.loaded && autorun) run().catch((e) => showStatus(e.message, true));
    return true;
  }
  // A link pasted into the address bar of an open app (history.replaceState, used by Share, fires no event).
  window.addEventListener('hashchange', () => { if (ready) loadFromHash(true); });

  // The scripting and testing API (docs/browser.md).
  window.astrolabe = {
    version: null, // set once the simulator is ready
    ready: () => ready,
    samples() { requireReady(); return cstr(Module._astro_samples()).split('\n').filter(Boolean); },
    scenario() { requireReady(); return JSON.parse(cstr(Module._astro_scenario_json())); },
    loadScenario(obj) {
      requireReady();
      return loadScenarioText(typeof obj === 'string' ? obj : JSON.stringify(obj), 'loadScenario');
    },
    loadSample(name) { requireReady(); return loadResult(withCString(name, (p) => Module._astro_load_sample(p))); },
    loadLink(url) { requireReady(); return loadResult(withCString(url, (p) => Module._astro_load_link(p))); },
    loadFiles(files) { requireReady(); return loadFiles(files); },
    run,
    cancel() { requireReady(); Module._astro_cancel(); },
    report() { requireReady(); const t = cstr(Module._astro_report()); return t ? JSON.parse(t) : null; },
    reportText() { requireReady(); return cstr(Module._astro_report()); }, // the exact bytes `run --report` writes
    timeline() { requireReady(); const t = cstr(Module._astro_timeline()); return t ? JSON.parse(t) : null; },
    problems() { requireReady(); return problems(); },
    // nccl-tests' table for a hardware description, simulated (docs/hardware.md); opts: op, algo,
    // minBytes, maxBytes (nccl-tests spellings: 8, 64K, 16G), type and redop (nccl-tests' -d and -o; sizes
    // are cut as nccl-tests cuts them, as the CLI does), reference ('astra-sim'). Returns the rows.
    collectivePerf(hardware, opts = {}) {
      requireReady();
      const hw = typeof hardware === 'string' ? hardware : JSON.stringify(hardware);
      const args = [hw, opts.op || 'all_reduce', opts.algo || 'auto', String(opts.minBytes || '8'),
        String(opts.maxBytes || '16G'), opts.type || '', opts.redop || ''];
      const ptrs = args.map((a) => { const n = Module.lengthBytesUTF8(a) + 1; const p = Module._malloc(n); Module.stringToUTF8(a, p, n); return p; });
      try {
        const out = JSON.parse(cstr(Module._astro_collective_perf(...ptrs, opts.reference === 'astra-sim' ? 1 : 0)));
        if (out.error) throw new Error(out.error);
        return out.rows;
      } finally {
        ptrs.forEach((p) => Module._free(p));
      }
    },
    hardwarePanel() { requireReady(); return JSON.parse(cstr(Module._astro_hardware_panel())); },
    // A widget's rectangle {x, y, w, h} in page pixels as last drawn, or null (for mouse-driven tests).
    widgetRect(name) {
      requireReady();
      const t = withCString(name, (p) => cstr(Module._astro_widget_rect(p)));
      if (!t) return null;
      const [x, y, w, h] = t.split(' ').map(Number);
      return { x, y, w, h };
    },
    // What the UI shows now (picker, results tab, timeline window, table scroll, compared runs): for tests
    // that drive the app with the mouse and keyboard (docs/browser.md).
    viewState() { requireReady(); return JSON.parse(cstr(Module._astro_view_state())); },
    // The Search tab: phase, evaluations, best step time, message, ticked fields (docs/browser.md).
    searchState() { requireReady(); return JSON.parse(cstr(Module._astro_search_state())); },
    shareUrl() {
      requireReady();
      const fragment = cstr(Module._astro_share_fragment());
      if (!fragment) throw new Error(problems());
      return shareUrlFor(fragment);
    },
  };

  window.Module = {
    canvas,
    print: (text) => console.log(text),
    printErr: (text) => console.warn(text),
    onRuntimeInitialized() {
      ready = true;
      window.astrolabe.version = cstr(Module._astro_version());
      if (!loadFromHash(true)) {
        const samples = window.astrolabe.samples();
        if (samples.length > 0) window.astrolabe.loadSample(samples[0]);
      }
      showStatus('');
      window.wasmReady = true;
    },
    onAbort(what) {
      showStatus('The simulator stopped (' + what + '). Reload the page to start again; your scenario is in ' +
        'the link if you shared it.', true);
    },
  };

  // WebGL 2 is required; say so instead of showing a blank page.
  if (!document.createElement('canvas').getContext('webgl2')) {
    showStatus('This browser has no WebGL 2, which the Astrolabe app draws with. The astrolabe CLI runs the ' +
      'same simulations.', true);
  }
})();
