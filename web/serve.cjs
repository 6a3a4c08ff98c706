// A minimal static file server for `scripts/demo` and the browser tests (no Python or npm server needed).
// Serves one folder on 127.0.0.1 with the MIME types the app needs (application/wasm for streaming compile).
//   node web/serve.cjs [FOLDER [PORT]]     (default build/wasm/web, port 8000; 0 picks a free port)
'use strict';
const http = require('http');
const fs = require('fs');
const path = require('path');

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css',
  '.wasm': 'application/wasm', '.data': 'application/octet-stream', '.json': 'application/json',
};

function serve(root, port = 0) {
  root = path.resolve(root);
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = path.join(root, urlPath === '/' ? 'index.html' : urlPath);
    if (!file.startsWith(root + path.sep)) { res.writeHead(403); res.end(); return; }
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404); res.end('not found'); return; }
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream',
        'Cache-Control': 'no-store' });
      res.end(data);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject); // e.g. the port is taken
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

module.exports = { serve };

if (require.main === module) {
  const root = process.argv[2] || 'build/wasm/web';
  const port = Number(process.argv[3] || 8000);
  serve(root, port).then((s) => {
    console.log('Astrolabe web app: http://127.0.0.1:' + s.address().port + '/  (Ctrl-C stops)');
  }, (e) => {
    if (e.code === 'EADDRINUSE')
      console.error('serve: port ' + port + ' is already in use (another server, or an earlier demo still ' +
        'running); choose another port: PORT=' + (port + 1) + ' scripts/demo, or node web/serve.cjs ' + root + ' ' +
        (port + 1));
    else
      console.error('serve: ' + e.message);
    process.exit(2);
  });
}
