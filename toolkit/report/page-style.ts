/**
 * The pages' stylesheet, inlined. Every kind of bar differs by pattern, border and label, not by
 * colour alone, so the picture reads in greyscale and for colour-blind readers.
 */
export const PAGE_STYLE = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #ffffff; --lane: #f6f8fa;
  --model: #cfe3ff; --model-ink: #0b4a9e; --tool: #fff1cc; --tool-ink: #7a4b00; --task: #e8dcff; --task-ink: #4b2a93;
  --bad: #b3261e; --bad-bg: #fde7e6; --ok: #116329; --focus: #000000; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
header, main { padding: 12px 20px; }
header { border-bottom: 1px solid var(--line); }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 16px 0 8px; }
a { color: var(--model-ink); }
.meta { color: var(--muted); margin: 0; }
.verdict { display: inline-block; font-weight: 700; padding: 1px 8px; border: 2px solid currentColor; border-radius: 4px; margin-right: 8px; }
.verdict.pass { color: var(--ok); }
.verdict.fail { color: var(--bad); }
.verdict.none { color: var(--muted); }
.failures { border: 2px solid var(--bad); background: var(--bad-bg); border-radius: 6px; padding: 8px 12px; margin: 12px 0; }
.failure { margin: 6px 0; }
.missing-track { min-height: 26px; border: 2px dashed var(--bad); border-radius: 4px; display: flex; align-items: center; padding: 0 8px; }
.missing-note { font-size: 12px; color: var(--bad); font-style: italic; }
.toolbar[hidden] { display: none; }
.toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 10px; margin: 8px 0; }
.toolbar input[type="search"] { font: inherit; padding: 2px 6px; min-width: 16em; }
.toolbar button { font: inherit; min-width: 2em; }
.toolbar .keys { color: var(--muted); font-size: 12px; }
.toolbar .clock { display: inline-flex; gap: 8px; align-items: center; border: 1px solid var(--line); border-radius: 4px; padding: 0 8px 2px; margin: 0; }
.toolbar .clock legend { font-size: 12px; color: var(--muted); padding: 0 4px; }
.timing-note { margin: 6px 0 0; padding: 4px 8px; border: 2px dashed var(--muted); border-radius: 4px; max-width: 60em; }
.bar.match { outline: 3px solid var(--focus); outline-offset: 1px; z-index: 2; }
.bar.no-match { opacity: 0.35; }
.messages { list-style: none; padding-left: 0; margin: 4px 0; }
.msg { border-left: 3px solid var(--line); padding-left: 8px; margin: 4px 0; }
.msg[data-role="user"] { border-left-style: double; border-left-width: 4px; }
.msg .role { font-weight: 700; font-size: 12px; text-transform: uppercase; }
.msg-answers { font-size: 12px; color: var(--muted); }
.details .tools { margin: 6px 0; }
.details .tools summary { cursor: pointer; font-weight: 600; }
.details .tool-def { border-left: 3px solid var(--tool-ink); padding-left: 8px; margin: 6px 0; }
.details .tool-def p { margin: 2px 0; }
.caused { margin: 6px 0 2px; }
.consequences { margin: 0; padding-left: 20px; font-size: 13px; }
.failure pre, .details pre { white-space: pre-wrap; word-break: break-word; background: var(--bg); border: 1px solid var(--line); border-radius: 4px; padding: 6px 8px; margin: 4px 0; max-height: 24em; overflow: auto; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
.divergence { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 6px 0; }
.divergence dt { font-weight: 700; }
.divergence dd { margin: 0; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; word-break: break-word; }
.divergence .recorded::before { content: "− "; }
.divergence .live::before { content: "+ "; }
.divergence del { background: var(--bad-bg); text-decoration: line-through 2px; outline: 1px solid var(--bad); }
.divergence ins { background: #dafbe1; text-decoration: underline 2px; outline: 1px solid var(--ok); }
.divergence .fold { border: 1px dashed var(--muted); border-radius: 3px; padding: 0 3px; color: var(--muted); }
.legend { display: flex; flex-wrap: wrap; gap: 6px 16px; margin: 8px 0 12px; padding: 0; list-style: none; color: var(--muted); }
.legend li { display: flex; align-items: center; gap: 6px; }
.legend .swatch { min-width: 0; }
.swatch { display: inline-block; width: 34px; height: 14px; border: 1px solid var(--ink); position: relative; }
.timeline { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; }
.timeline-inner { min-width: 640px; }
.row { display: grid; grid-template-columns: minmax(12rem, 18rem) 1fr; border-top: 1px solid var(--line); }
.row:first-child { border-top: 0; }
.axis-row { position: sticky; top: 0; background: var(--bg); z-index: 2; }
.lane-label { position: sticky; left: 0; z-index: 1; padding: 6px 8px; background: var(--lane); border-right: 1px solid var(--line); overflow-wrap: anywhere; }
.lane-label:focus { outline: 3px solid var(--focus); outline-offset: -3px; }
.lane-label .lineage { font: 600 12px/1.3 ui-monospace, SFMono-Regular, Menlo, monospace; }
.lane-label .tree { color: var(--muted); }
.badge { display: inline-block; font-size: 11px; border: 1px solid var(--muted); border-radius: 3px; padding: 0 4px; margin: 2px 4px 0 0; color: var(--muted); }
.badge.oop { border-style: dashed; color: var(--ink); font-weight: 600; }
.badge.bad { border-color: var(--bad); color: var(--bad); font-weight: 600; }
.track { position: relative; margin: 4px 10px; }
.axis { position: relative; height: 24px; margin: 0 10px; }
.tick { position: absolute; top: 0; bottom: 0; border-left: 1px solid var(--line); font-size: 11px; color: var(--muted); padding-left: 3px; white-space: nowrap; }
.tick.at-end { transform: translateX(-100%); border-left: 0; border-right: 1px solid var(--line); padding: 0 3px 0 0; }
.gridline { position: absolute; top: 0; bottom: 0; border-left: 1px dotted var(--line); pointer-events: none; }
.bar { position: absolute; height: 20px; min-width: 8px; padding: 0 4px; border: 1px solid var(--ink); border-radius: 3px; font: 11px/18px system-ui, sans-serif; text-align: left; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; cursor: pointer; color: var(--ink); }
.bar:focus-visible, .bar:focus { outline: 3px solid var(--focus); outline-offset: 2px; z-index: 3; }
.bar.selected { box-shadow: 0 0 0 3px var(--ink); z-index: 3; }
.bar .label { position: relative; z-index: 1; }
.bar-model { background: var(--model); }
.bar-tool { background: var(--tool); border-width: 2px; line-height: 16px; background-image: linear-gradient(90deg, transparent 0 calc(100% - 4px), var(--tool-ink) calc(100% - 4px)); }
.bar-task { background: var(--task) repeating-linear-gradient(0deg, transparent 0 3px, rgba(0,0,0,.18) 3px 4px); border: 2px dashed var(--task-ink); line-height: 16px; }
.is-error { border: 3px double var(--bad); line-height: 14px; }
.is-cancel { border: 2px dotted var(--ink); line-height: 16px; }
.is-failed { min-width: 104px; font-weight: 700; border: 3px solid var(--bad); line-height: 14px; background-image: repeating-linear-gradient(45deg, var(--bad-bg) 0 4px, transparent 4px 8px), repeating-linear-gradient(-45deg, var(--bad-bg) 0 4px, transparent 4px 8px); }
.phase { position: absolute; top: 0; bottom: 0; pointer-events: none; }
.phase-reasoning { background: repeating-linear-gradient(45deg, rgba(11,74,158,.45) 0 3px, transparent 3px 6px); }
.phase-text { background: rgba(11,74,158,.35); }
.phase-tool-call { background: radial-gradient(circle, rgba(0,0,0,.55) 1px, transparent 1.5px) 0 0 / 5px 5px; }
.phase-wait { background: transparent; }
.mark { position: absolute; top: -2px; bottom: -2px; width: 0; border-left: 2px solid var(--bad); pointer-events: none; }
.mark span { position: absolute; top: -1px; left: 2px; font: 700 11px/1 system-ui, sans-serif; color: var(--bad); background: var(--bg); padding: 1px 2px; border: 1px solid var(--bad); border-radius: 2px; white-space: nowrap; }
.mark.cancel { border-left-style: dashed; }
.mark.at-end span { left: auto; right: 2px; }
.details { border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; margin: 14px 0; min-height: 4em; }
.details:focus { outline: 3px solid var(--focus); }
.details dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 6px 0; }
.details dt { color: var(--muted); }
.details dd { margin: 0; overflow-wrap: anywhere; }
.details .failed-note { border: 2px solid var(--bad); background: var(--bad-bg); border-radius: 4px; padding: 6px 10px; margin: 8px 0; }
.link { font: inherit; color: var(--model-ink); background: none; border: 0; padding: 0; text-decoration: underline; cursor: pointer; }
.link:focus { outline: 3px solid var(--focus); }
table.scenarios { border-collapse: collapse; width: 100%; max-width: 960px; }
table.scenarios th, table.scenarios td { text-align: left; padding: 4px 10px; border-bottom: 1px solid var(--line); }
table.scenarios td.num { text-align: right; font-variant-numeric: tabular-nums; }
.result-pass { color: var(--ok); font-weight: 700; }
.result-fail { color: var(--bad); font-weight: 700; }
@media (max-width: 700px) {
  header, main { padding: 10px; }
  .row { grid-template-columns: 1fr; }
  .lane-label { border-right: 0; border-bottom: 1px solid var(--line); }
  .axis-row .lane-label { display: none; }
  .timeline-inner { min-width: 0; }
}
@media (prefers-reduced-motion: reduce) { * { scroll-behavior: auto !important; } }
`;
