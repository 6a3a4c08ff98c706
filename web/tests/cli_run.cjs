// The native CLI's run of a scenario object, for checks that compare the page's run with it.
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

// `astrolabe run --scenario` of `scenario` (written to a temporary file named after `name`): the report's
// text. The files are removed afterwards.
function cliReportText(cli, scenario, name) {
  const file = path.join(os.tmpdir(), 'astrolabe-' + name + '-' + process.pid + '.json');
  const report = file + '.report.json';
  fs.writeFileSync(file, JSON.stringify(scenario));
  try {
    execFileSync(cli, ['run', '--scenario', file, '--report', report, '--quiet'], { stdio: 'pipe' });
    return fs.readFileSync(report, 'utf8');
  } finally {
    fs.rmSync(file, { force: true });
    fs.rmSync(report, { force: true });
  }
}

// The same run's total_ns.
const cliTotal = (cli, scenario, name) => JSON.parse(cliReportText(cli, scenario, name)).total_ns;

module.exports = { cliReportText, cliTotal };
