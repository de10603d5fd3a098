import { DATA_ELEMENT_ID, embedJson, escapeHtml, formatMs, pageHead } from './html.js';
import type { ReportIndexData } from './types.js';

/** The index page: one row per scenario with its verdict, counts and duration, linking its page. */
export function renderIndexPage(data: ReportIndexData): string {
  const failed = data.scenarios.filter((entry) => entry.passed === false).length;
  const passed = data.scenarios.filter((entry) => entry.passed === true).length;
  const notRun = data.scenarios.length - failed - passed;
  const summary = `${data.scenarios.length} scenario${data.scenarios.length === 1 ? '' : 's'}: ${passed} passed, ${failed} failed${notRun > 0 ? `, ${notRun} not run (drawn from a recording)` : ''}`;
  const rows = data.scenarios.map((entry) => {
    const result =
      entry.passed === null
        ? '<td>– not run</td>'
        : entry.passed
          ? '<td class="result-pass">✓ pass</td>'
          : '<td class="result-fail">✗ FAIL</td>';
    return `<tr data-scenario="${escapeHtml(entry.name)}"><td><a href="${escapeHtml(encodeURI(entry.file))}">${escapeHtml(entry.name)}</a></td>${result}<td class="num">${entry.sessions}</td><td class="num">${entry.modelCalls}</td><td class="num">${entry.durationMs === null ? '–' : escapeHtml(formatMs(entry.durationMs))}</td><td>${entry.firstFailure === null ? '' : `${escapeHtml(entry.firstFailure)}${entry.failures > 1 ? ` (+${entry.failures - 1} more)` : ''}`}</td></tr>`;
  });
  return `${pageHead(`${failed > 0 ? `✗ ${failed} failed · ` : ''}nestcast report`)}
<body>
<header><h1>nestcast report</h1><p class="meta" id="summary">${escapeHtml(summary)}</p></header>
<main>
<table class="scenarios" aria-describedby="summary">
<thead><tr><th scope="col">scenario</th><th scope="col">result</th><th scope="col">sessions</th><th scope="col">model calls</th><th scope="col">duration</th><th scope="col">first failure</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
</main>
<script type="application/json" id="${DATA_ELEMENT_ID}">${embedJson(data)}</script>
</body>
</html>
`;
}
