import { DATA_ELEMENT_ID, embedJson, escapeHtml, formatMs, pageHead } from './html.js';
import { failureSummary } from '../scenarios/group-failures.js';
import { consequencesLine } from '../scenarios/scenario-report.js';
import { PAGE_SCRIPT } from './page-script.js';
import { messageBesideDiff } from './failure-text.js';
import { onClock } from './report-clock.js';
import { foldUnchanged, wordDiff, type ShownPart } from './word-diff.js';
import type { ReportData, ReportModelCall, ReportSession, ReportTask, ReportToolCall } from './types.js';

const ROW_PX = 26;
/** Bars narrower than this share of the axis are drawn this wide, so they are packed as if they were. */
const MIN_SHARE = 0.012;
/** Past this share of the axis, bars and mark labels extend to the left. */
const END_ZONE = 0.85;

/**
 * One scenario as a page: lanes and bars drawn here (readable with scripts off), the data
 * embedded for the details panel and for other tools, the script inline. Opens from disk.
 */
export function renderScenarioPage(data: ReportData, options: { readonly indexHref?: string } = {}): string {
  const { scenario } = data;
  const verdict =
    scenario.passed === null ? ['none', 'NOT RUN'] : scenario.passed ? ['pass', '✓ PASSED'] : ['fail', '✗ FAILED'];
  const counts = `${data.sessions.length} session${data.sessions.length === 1 ? '' : 's'} · ${scenario.modelCalls} model call${scenario.modelCalls === 1 ? '' : 's'}`;
  const tokens = data.usage === null ? '' : ` · ${tokensText(data.usage)}`;
  const note =
    scenario.timingNote === null
      ? ''
      : `<p class="timing-note" role="note"><strong>No recorded timing.</strong> ${escapeHtml(scenario.timingNote)}.</p>`;
  return `${pageHead(`${scenario.passed === false ? '✗ ' : ''}${scenario.name} · nestcast report`)}
<body>
<header>
${options.indexHref === undefined ? '' : `<p class="meta"><a href="${escapeHtml(options.indexHref)}">← all scenarios</a></p>`}
<h1><span class="verdict ${verdict[0]}">${verdict[1]}</span>${escapeHtml(scenario.name)}</h1>
<p class="meta">${escapeHtml(`${scenario.kind} · ${scenario.source} · ${counts}${scenario.durationMs === null ? '' : ` · ${formatMs(scenario.durationMs)}`}${tokens}`)} · <span id="axis-clock">${escapeHtml(clockLabel(scenario.timing, scenario.kind))}</span></p>
${note}
</header>
<main>
${renderFailures(data)}
<h2 id="timeline-heading">Timeline</h2>
${LEGEND}
${toolbar(data)}
<div class="timeline" role="region" aria-labelledby="timeline-heading" tabindex="-1">
${renderTimeline(data)}
</div>
${data.otherClock === null ? '' : `<template id="other-clock">${renderTimeline(onClock(data, data.otherClock))}</template>`}
<section id="details" class="details" tabindex="-1" aria-live="polite" aria-label="Details">
<p class="meta">Select a bar (click it, or Tab to it and press Enter) to see the call.</p>
</section>
</main>
<script type="application/json" id="${DATA_ELEMENT_ID}">${embedJson(data)}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}

/** `time axis: the recording’s clock`, as the header says it and the clock switch changes it. */
export function clockLabel(timing: ReportData['scenario']['timing'], kind: ReportData['scenario']['kind']): string {
  if (timing === 'recorded') return 'time axis: the recording’s clock';
  return `time axis: this ${kind === 'replay' ? 'replay' : 'run'}’s own clock`;
}

/** The lanes on one clock: the page draws its first clock, and keeps the second in a template for the switch. */
function renderTimeline(data: ReportData): string {
  const span = Math.max(data.span, 1);
  return `<div class="timeline-inner" data-clock="${data.scenario.timing}">
<div class="row axis-row"><div class="lane-label">session</div><div class="axis" aria-hidden="true">${renderTicks(span)}</div></div>
${data.sessions.map((session) => renderLane(session, data, span)).join('\n')}
${data.missing.map(renderMissingLane).join('\n')}
</div>`;
}

/** Search, zoom and (with a second clock) the clock switch: shown by the page's script, since without it they would do nothing. */
function toolbar(data: ReportData): string {
  const other = data.otherClock;
  const clocks =
    other === null
      ? ''
      : `\n<fieldset class="clock"><legend>Time axis</legend>${[data.scenario.timing, other.timing]
          .map(
            (timing, index) =>
              `<label><input type="radio" name="clock" value="${timing}" data-label="${escapeHtml(clockLabel(timing, data.scenario.kind))}"${index === 0 ? ' checked' : ''}> ${escapeHtml(timing === 'recorded' ? 'as recorded' : `this ${data.scenario.kind}`)}</label>`,
          )
          .join(' ')}</fieldset>`;
  return `<div class="toolbar" role="toolbar" aria-label="Timeline tools" hidden>
<label for="search">Search</label> <input type="search" id="search" placeholder="calls, tools, sessions, text" aria-describedby="search-count" autocomplete="off">
<span id="search-count" aria-live="polite"></span>
<span class="zoom"><button type="button" id="zoom-out" aria-label="zoom out">−</button> <span id="zoom-level" aria-live="polite">1×</span> <button type="button" id="zoom-in" aria-label="zoom in">+</button></span>
<span class="keys">/ search · Enter next match · + − zoom · ← → bars of a lane · ↑ ↓ lanes</span>${clocks}
</div>`;
}

const LEGEND = `<ul class="legend" aria-label="Legend">
<li><span class="swatch bar-model" aria-hidden="true"></span>model call</li>
<li><span class="swatch bar-model" aria-hidden="true"><span class="phase phase-reasoning" style="left:0;width:100%"></span></span>reasoning streamed (stripes)</li>
<li><span class="swatch bar-model" aria-hidden="true"><span class="phase phase-text" style="left:0;width:100%"></span></span>text streamed (shaded)</li>
<li><span class="swatch bar-model" aria-hidden="true"><span class="phase phase-tool-call" style="left:0;width:100%"></span></span>tool call streamed (dots)</li>
<li><span class="swatch bar-tool" aria-hidden="true"></span>tool call (thick border; “→” starts a child)</li>
<li><span class="swatch bar-task" aria-hidden="true"></span>background task (dashed, until it settles)</li>
<li><span class="swatch bar-model is-error" aria-hidden="true"></span>✕ error (double border)</li>
<li><span class="swatch bar-model is-cancel" aria-hidden="true"></span>⊘ cancelled (dotted border)</li>
<li><span class="swatch bar-model is-failed" aria-hidden="true"></span>FAILED: the call the replay failed on (cross-hatched)</li>
</ul>`;

function renderFailures(data: ReportData): string {
  if (data.failures.length === 0) return '';
  const failed = data.sessions.flatMap((session) => session.modelCalls).find((call) => call.failed);
  const items = data.failures.map((failure, index) => {
    const divergence = failure.divergence;
    const where =
      failure.lineage === undefined
        ? ''
        : ` — model call ${failure.call ?? '?'} of session <code>${escapeHtml(failure.lineage)}</code>`;
    const jump =
      failed !== undefined && failure.lineage !== undefined
        ? ` <button type="button" class="link" data-bar="${escapeHtml(failed.id)}">show the failing call</button>`
        : '';
    return `<div class="failure" data-failure="${index}"><strong>${escapeHtml(failure.code)}</strong>${where}${jump}
${divergence === undefined ? '' : renderDivergence(divergence)}
<pre>${escapeHtml(divergence === undefined ? failure.message : messageBesideDiff(failure.message, divergence))}</pre>${renderConsequences(failure.consequences)}</div>`;
  });
  const caused = data.failures.reduce((sum, failure) => sum + failure.consequences.length, 0);
  const heading = `${data.failures.length} failure${data.failures.length === 1 ? '' : 's'}${caused === 0 ? '' : ` (and ${caused} caused by ${data.failures.length === 1 ? 'it' : 'them'})`}`;
  return `<section class="failures" aria-labelledby="failures-heading"><h2 id="failures-heading">${heading}</h2>
${items.join('\n')}</section>`;
}

/** `1,234 tokens in, 56 out`. */
function tokensText(usage: NonNullable<ReportData['usage']>): string {
  return `${usage.inputTokens.toLocaleString('en')} tokens in, ${usage.outputTokens.toLocaleString('en')} out`;
}

/** What a failure caused, one line each: their full text would only restate the failure. */
function renderConsequences(consequences: ReportData['failures'][number]['consequences']): string {
  if (consequences.length === 0) return '';
  const items = consequences.map(
    (failure) => `<li><strong>${escapeHtml(failure.code)}</strong> ${escapeHtml(failureSummary(failure.message))}</li>`,
  );
  return `<p class="caused">${escapeHtml(consequencesLine(consequences.length))}</p>
<ul class="consequences">${items.join('')}</ul>`;
}

/** Where the request first differed, the two values side by side with the changed words marked and long unchanged stretches folded. */
function renderDivergence(divergence: NonNullable<ReportData['failures'][number]['divergence']>): string {
  const shown = foldUnchanged(wordDiff(divergence.recorded, divergence.live));
  return `<dl class="divergence" aria-label="First divergence">
<dt>first divergence at</dt><dd>${escapeHtml(divergence.path)}</dd>
<dt>recorded</dt><dd class="recorded">${renderSide(shown, 'removed')}</dd>
<dt>live</dt><dd class="live">${renderSide(shown, 'added')}</dd>
</dl>`;
}

/** One side of a word diff: its own changes marked (`del` struck through, `ins` underlined), not colour alone. */
function renderSide(parts: readonly ShownPart[], own: 'removed' | 'added'): string {
  return parts
    .map((part) => {
      if (part.kind === 'folded') return `<span class="fold" title="${part.chars} unchanged characters">…</span>`;
      if (part.kind === 'same') return escapeHtml(part.text);
      if (part.kind !== own) return '';
      return own === 'removed' ? `<del>${escapeHtml(part.text)}</del>` : `<ins>${escapeHtml(part.text)}</ins>`;
    })
    .join('');
}

function renderTicks(span: number): string {
  const step = tickStep(span);
  const ticks: string[] = [];
  for (let t = 0; t <= span + step / 1000; t += step) {
    ticks.push(
      `<span class="tick${t / span > END_ZONE ? ' at-end' : ''}" style="left:${pct(t, span)}%">${escapeHtml(formatMs(t))}</span>`,
    );
  }
  return ticks.join('');
}

/** 1, 2 or 5 times a power of ten, for 4 to 10 ticks. */
function tickStep(span: number): number {
  const raw = span / 6;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= raw) ?? 10 * power;
  return Math.max(step, 1);
}

interface Placed {
  readonly html: (top: number) => string;
  readonly from: number;
  readonly to: number;
}

function renderLane(session: ReportSession, data: ReportData, span: number): string {
  // Model calls keep the first rows; a call too short to show is drawn wider, so back-to-back calls are packed too.
  const model = session.modelCalls
    .map((call) => placed(call.start, call.end, span, (top) => modelBar(call, session, span, top)))
    .sort((a, b) => a.from - b.from);
  const others = [
    ...session.toolCalls.map((tool) =>
      placed(tool.start, tool.end, span, (top) => toolBar(tool, session, data, span, top)),
    ),
    ...session.tasks.map((task) => placed(task.start, task.end, span, (top) => taskBar(task, data, span, top))),
  ].sort((a, b) => a.from - b.from);
  const modelRows = packRows(model);
  const rows = [...(modelRows.length > 0 ? modelRows : [[]]), ...packRows(others)];
  const height = rows.length * ROW_PX;
  const bars = rows.flatMap((row, index) => row.map((bar) => bar.html(3 + index * ROW_PX)));
  const marks = session.marks.map(
    (mark) =>
      `<span class="mark ${mark.kind}${mark.time / span > END_ZONE ? ' at-end' : ''}" style="left:${pct(mark.time, span)}%" title="${escapeHtml(mark.label)}"><span>${mark.kind === 'cancel' ? '⊘ cancelled' : '✕ error'}</span></span>`,
  );
  const badges = [
    session.outOfProcess ? '<span class="badge oop">out-of-process (ACP)</span>' : '',
    session.seedLength > 0 ? `<span class="badge">fork: ${session.seedLength} inherited events</span>` : '',
    session.usage === null ? '' : `<span class="badge tokens">${escapeHtml(tokensText(session.usage))}</span>`,
    `<span class="badge${session.outcome === 'completed' || session.outcome === 'none' ? '' : ' bad'}">${escapeHtml(outcomeLabel(session.outcome))}</span>`,
  ].join('');
  const tree =
    session.depth === 0 ? '' : `<span class="tree" aria-hidden="true">${'  '.repeat(session.depth - 1)}└ </span>`;
  const parent = data.sessions.find((candidate) => candidate.id === session.parent);
  const describedParent = parent === undefined ? '' : `, child of ${parent.lineage}`;
  return `<div class="row lane" data-lane-id="${session.id}" data-depth="${session.depth}">
<div class="lane-label" id="lane-${session.id}" tabindex="-1" style="padding-left:${8 + session.depth * 16}px" aria-label="${escapeHtml(`session ${session.lineage}${describedParent}`)}">${tree}<span class="lineage">${escapeHtml(session.lineage)}</span><br>${badges}</div>
<div class="track" style="height:${height}px">${gridlines(span)}${bars.join('')}${marks.join('')}</div>
</div>`;
}

/** A session the recording has and the failed run never reached: a dashed, empty lane saying so. */
function renderMissingLane(missing: ReportData['missing'][number]): string {
  const depth = missing.lineage.split('/').length - 1;
  const calls = `${missing.modelCalls} recorded model call${missing.modelCalls === 1 ? '' : 's'} never requested`;
  return `<div class="row lane missing" data-missing="${escapeHtml(missing.lineage)}">
<div class="lane-label" style="padding-left:${8 + depth * 16}px" aria-label="${escapeHtml(`session ${missing.lineage}, expected from the recording, never reached`)}"><span class="lineage">${escapeHtml(missing.lineage)}</span><br><span class="badge bad">expected, never reached</span></div>
<div class="track missing-track"><span class="missing-note">${escapeHtml(calls)}</span></div>
</div>`;
}

function gridlines(span: number): string {
  const step = tickStep(span);
  const lines: string[] = [];
  for (let t = step; t < span; t += step)
    lines.push(`<span class="gridline" style="left:${pct(t, span)}%" aria-hidden="true"></span>`);
  return lines.join('');
}

function modelBar(call: ReportModelCall, session: ReportSession, span: number, top: number): string {
  const status = call.failed
    ? 'is-failed'
    : call.finish === 'error'
      ? 'is-error'
      : call.finish === 'aborted'
        ? 'is-cancel'
        : '';
  const prefix = call.finish === 'error' ? '✕ ' : call.finish === 'aborted' ? '⊘ ' : '';
  const phases = call.phases
    .filter((phase) => phase.kind !== 'wait' && phase.to > phase.from)
    .map(
      (phase) =>
        `<span class="phase phase-${phase.kind}" style="left:${(phase.from * 100).toFixed(2)}%;width:${((phase.to - phase.from) * 100).toFixed(2)}%"></span>`,
    )
    .join('');
  const label = call.failed ? `FAILED: call ${call.call}` : `${prefix}model call ${call.call}`;
  const aria = `${label} of ${session.lineage}, turn ${call.turn} step ${call.step}, ${formatMs(call.end - call.start)}, finish ${call.finish ?? 'none'}`;
  return barButton(
    call.id,
    `bar-model ${status}`,
    call.start,
    call.end,
    span,
    top,
    aria,
    `${phases}<span class="label">${escapeHtml(label)}</span>`,
  );
}

function toolBar(tool: ReportToolCall, session: ReportSession, data: ReportData, span: number, top: number): string {
  const child = data.sessions.find((candidate) => candidate.id === tool.child);
  const status = tool.output === null ? 'is-cancel' : tool.isError ? 'is-error' : '';
  const prefix = tool.output === null ? '⊘ ' : tool.isError ? '✕ ' : '';
  const label = `${prefix}${tool.name}${child === undefined ? '' : ` → ${child.lineage}`}${tool.background ? ' (background)' : ''}`;
  const aria = `tool call ${label} in ${session.lineage}, ${formatMs(tool.end - tool.start)}${tool.isError ? ', error' : ''}`;
  return barButton(
    tool.id,
    `bar-tool ${status}`,
    tool.start,
    tool.end,
    span,
    top,
    aria,
    `<span class="label">${escapeHtml(label)}</span>`,
  );
}

function taskBar(task: ReportTask, data: ReportData, span: number, top: number): string {
  const child = data.sessions.find((candidate) => candidate.id === task.child);
  const status = task.outcome === 'failed' ? 'is-error' : task.outcome === 'killed' ? 'is-cancel' : '';
  const label = `task ${task.taskId} (${task.outcome})${child === undefined ? '' : ` → ${child.lineage}`}`;
  return barButton(
    task.id,
    `bar-task ${status}`,
    task.start,
    task.end,
    span,
    top,
    `background ${label}, ${formatMs(task.end - task.start)}`,
    `<span class="label">${escapeHtml(label)}</span>`,
  );
}

function barButton(
  id: string,
  classes: string,
  start: number,
  end: number,
  span: number,
  top: number,
  aria: string,
  inner: string,
): string {
  // Near the end of the axis a bar is anchored by its right edge, so its minimum width grows leftwards, inside the track.
  const where = start / span > END_ZONE ? `right:${pct(span - end, span)}%` : `left:${pct(start, span)}%`;
  return `<button type="button" class="bar ${classes.trim()}" data-bar="${escapeHtml(id)}" aria-controls="details" aria-label="${escapeHtml(aria)}" title="${escapeHtml(aria)}" style="${where};width:${pct(end - start, span)}%;top:${top}px">${inner}</button>`;
}

function placed(start: number, end: number, span: number, html: (top: number) => string): Placed {
  return { html, from: start / span, to: Math.max(end / span, start / span + MIN_SHARE) };
}

/** Greedy interval packing: each bar goes to the first row where it overlaps nothing. */
function packRows(bars: readonly Placed[]): Placed[][] {
  const rows: Placed[][] = [];
  for (const bar of bars) {
    const row = rows.find((candidate) => (candidate.at(-1)?.to ?? 0) <= bar.from);
    if (row) row.push(bar);
    else rows.push([bar]);
  }
  return rows;
}

function outcomeLabel(outcome: ReportSession['outcome']): string {
  if (outcome === 'open') return 'turn left open';
  if (outcome === 'none') return 'no turn';
  return outcome === 'completed' ? 'completed' : `${outcome === 'aborted' ? '⊘' : '✕'} ${outcome}`;
}

function pct(value: number, span: number): string {
  return ((Math.max(0, value) / span) * 100).toFixed(3);
}
