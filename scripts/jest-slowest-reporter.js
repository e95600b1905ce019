/**
 * A jest reporter (jest.config.js): after the run, the suite's wall time and its 15 slowest test
 * files, each with its own time, so CI shows where the minutes go (docs/operations.md, "Tests").
 */
const SHOWN = 15;

class SlowestReporter {
  onRunComplete(_contexts, results) {
    const wallS = (Date.now() - results.startTime) / 1000;
    const files = results.testResults
      .map((r) => ({ path: r.testFilePath.replace(`${process.cwd()}/`, ''), s: (r.perfStats.end - r.perfStats.start) / 1000 }))
      .filter((f) => Number.isFinite(f.s) && f.s > 0)
      .sort((a, b) => b.s - a.s);
    const lines = files.slice(0, SHOWN).map((f) => `  ${f.s.toFixed(1).padStart(7)} s  ${f.path}`);
    const sum = files.reduce((total, f) => total + f.s, 0);
    process.stderr.write(
      `\nThe suite's wall time: ${wallS.toFixed(0)} s (${files.length} files, ${sum.toFixed(0)} s of file time over the workers).\n` +
        `The ${Math.min(SHOWN, files.length)} slowest files:\n${lines.join('\n')}\n`,
    );
  }
}

module.exports = SlowestReporter;
