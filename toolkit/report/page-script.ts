import { DATA_ELEMENT_ID } from './html.js';

/**
 * The page's only script, inlined: bars are buttons (so Tab reaches them and Enter or Space
 * opens them), and opening one fills the details panel from the embedded data. Everything is
 * set as text, never parsed as HTML, so a model's output cannot become markup.
 */
export const PAGE_SCRIPT = `(function () {
  'use strict';
  var data = JSON.parse(document.getElementById(${JSON.stringify(DATA_ELEMENT_ID)}).textContent);
  var panel = document.getElementById('details');
  var items = new Map();
  var lanes = new Map();
  data.sessions.forEach(function (session) {
    lanes.set(session.id, session);
    session.modelCalls.forEach(function (item) { items.set(item.id, { kind: 'model', session: session, item: item }); });
    session.toolCalls.forEach(function (item) { items.set(item.id, { kind: 'tool', session: session, item: item }); });
    session.tasks.forEach(function (item) { items.set(item.id, { kind: 'task', session: session, item: item }); });
  });

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === 'text') node.textContent = attrs[key];
      else node.setAttribute(key, attrs[key]);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }
  function ms(value) { return value < 1000 ? Math.round(value) + ' ms' : (value / 1000).toFixed(2) + ' s'; }
  // The clock the timeline shows: the page's first, or (switched) the other one, whose times are data.otherClock's.
  var shownClock = data.scenario.timing;
  function when(item) {
    var times = data.otherClock && shownClock === data.otherClock.timing ? data.otherClock.times[item.id] : [item.start, item.end];
    return ['time' + (data.otherClock ? (shownClock === 'recorded' ? ', as recorded' : ', this ' + data.scenario.kind) : ''),
      ms(times[0]) + ' → ' + ms(times[1]) + ' (' + ms(times[1] - times[0]) + ')'];
  }
  function fields(pairs) {
    var list = el('dl');
    pairs.forEach(function (pair) {
      if (pair[1] === null || pair[1] === undefined || pair[1] === '') return;
      list.appendChild(el('dt', { text: pair[0] }));
      list.appendChild(typeof pair[1] === 'string' ? el('dd', { text: pair[1] }) : el('dd', {}, [pair[1]]));
    });
    return list;
  }
  function block(title, text) {
    if (text === null || text === undefined || text === '') return null;
    return el('div', {}, [el('h3', { text: title }), el('pre', { text: text })]);
  }
  function laneLink(laneId, prefix) {
    var lane = lanes.get(laneId);
    if (!lane) return null;
    return el('button', { type: 'button', class: 'link', 'data-lane': laneId, text: prefix + lane.lineage });
  }
  function pretty(json) {
    try { return JSON.stringify(JSON.parse(json), null, 2); } catch (error) { return json; }
  }

  // The recorded request, message by message as its wire protocol reads it; older messages folded.
  function requestBlock(messages) {
    if (!messages || messages.length === 0) return null;
    var items = messages.map(function (message, index) {
      var body = [el('span', { class: 'role', text: message.role })];
      if (message.text) body.push(el('pre', { text: message.text }));
      message.toolCalls.forEach(function (tool) { body.push(el('pre', { class: 'msg-tool', text: '→ ' + tool.name + ' ' + pretty(tool.arguments) })); });
      if (message.answers.length > 0) body.push(el('span', { class: 'msg-answers', text: 'answers ' + message.answers.join(', ') }));
      return el('li', { class: 'msg', 'data-role': message.role }, body);
    });
    var earlier = items.slice(0, -1);
    var list = el('ol', { class: 'messages' }, [
      earlier.length === 0 ? null : el('li', {}, [el('details', {}, [el('summary', { text: earlier.length + ' earlier message' + (earlier.length === 1 ? '' : 's') }), el('ol', { class: 'messages' }, earlier)])]),
      items[items.length - 1]
    ]);
    return el('div', { class: 'request' }, [el('h3', { text: 'Request (' + messages.length + ' message' + (messages.length === 1 ? '' : 's') + ', as recorded)' }), list]);
  }

  // The recorded request's parameters (model, temperature, …) under its API's names, then its tools, folded: a long list read on demand.
  function parametersBlock(parameters) {
    if (!parameters || parameters.length === 0) return null;
    return el('div', { class: 'parameters' }, [el('h3', { text: 'Parameters (as recorded)' }), fields(parameters.map(function (p) { return [p.name, p.value]; }))]);
  }
  function toolsBlock(tools) {
    if (!tools || tools.length === 0) return null;
    var names = tools.map(function (tool) { return tool.name; }).join(', ');
    return el('details', { class: 'tools' }, [
      el('summary', { text: tools.length + ' tool' + (tools.length === 1 ? '' : 's') + ' offered: ' + names })
    ].concat(tools.map(function (tool) {
      return el('div', { class: 'tool-def' }, [
        el('strong', { text: tool.name }),
        tool.description ? el('p', { text: tool.description }) : null,
        tool.parameters ? el('pre', { text: pretty(tool.parameters) }) : null
      ]);
    })));
  }
  // The recorded answer as its wire protocol reads it: why it stopped, its text, the tool calls with their arguments.
  function replyBlock(reply) {
    if (!reply) return null;
    var heading = 'Reply (as recorded)' + (reply.stop ? ' · stop: ' + reply.stop : '');
    return el('div', { class: 'reply' }, [
      el('h3', { text: heading }),
      reply.text ? el('pre', { class: 'reply-text', text: reply.text }) : null
    ].concat(reply.toolCalls.map(function (tool) {
      return el('pre', { class: 'reply-tool', text: '→ ' + tool.name + ' (' + tool.id + ')\\n' + pretty(tool.arguments) });
    })));
  }

  function modelDetails(entry) {
    var call = entry.item;
    var failure = data.failures.find(function (f) { return f.lineage === entry.session.lineage && f.call === call.call; });
    var tokens = call.usage || (call.reply && call.reply.usage);
    var usage = tokens ? tokens.inputTokens + ' in, ' + tokens.outputTokens + ' out' +
      (tokens.reasoningTokens ? ', ' + tokens.reasoningTokens + ' reasoning' : '') +
      (tokens.cachedInputTokens ? ', ' + tokens.cachedInputTokens + ' cached' : '') : null;
    var note = null;
    if (call.failed && failure) {
      var parts = [el('strong', { text: failure.code + ': the replay failed on this call' })];
      // The divergence as the failures box draws it, changed words marked.
      var drawn = document.querySelector('.failure[data-failure="' + data.failures.indexOf(failure) + '"] .divergence');
      if (drawn) parts.push(drawn.cloneNode(true));
      // The failure's text is on the page once, above: the panel points at it.
      parts.push(el('a', { href: '#failures-heading', text: 'the failure and what it caused' }));
      note = el('div', { class: 'failed-note', role: 'alert' }, parts);
    }
    return [
      el('h2', { text: 'Model call ' + call.call + ' of ' + entry.session.lineage }),
      note,
      fields([
        ['turn, step', call.turn + ', ' + call.step],
        when(call),
        ['finish', call.finish || 'none'],
        ['request', call.request],
        ['usage', usage],
        ['error', call.error]
      ]),
      requestBlock(call.messages),
      toolsBlock(call.tools),
      parametersBlock(call.parameters),
      block('Reasoning', call.reasoning),
      replyBlock(call.reply),
      call.reply ? null : block('Text', call.text),
      call.reply || call.toolCalls.length === 0 ? null : el('div', {}, [el('h3', { text: 'Tool calls asked for' })].concat(call.toolCalls.map(function (tool) {
        return el('pre', { text: tool.name + ' (' + tool.id + ')\\n' + pretty(tool.arguments) });
      })))
    ];
  }
  function toolDetails(entry) {
    var tool = entry.item;
    return [
      el('h2', { text: 'Tool call ' + tool.name + ' in ' + entry.session.lineage }),
      fields([
        ['call id', tool.callId],
        ['turn, step', tool.turn + ', ' + tool.step],
        when(tool),
        ['result', tool.output === null ? 'never answered' : tool.isError ? 'error' : 'ok'],
        ['mode', tool.background ? 'background: returned a task id at once' : null],
        ['started', tool.child ? laneLink(tool.child, 'session ') : null]
      ]),
      block('Arguments', pretty(tool.args)),
      block('Result', tool.output)
    ];
  }
  function taskDetails(entry) {
    var task = entry.item;
    return [
      el('h2', { text: 'Background task ' + task.taskId + ' of ' + entry.session.lineage }),
      fields([
        ['outcome', task.outcome],
        ['started by', task.callId],
        when(task),
        ['session', task.child ? laneLink(task.child, '') : null]
      ])
    ];
  }

  function open(id, reveal) {
    var entry = items.get(id);
    if (!entry) return;
    var parts = entry.kind === 'model' ? modelDetails(entry) : entry.kind === 'tool' ? toolDetails(entry) : taskDetails(entry);
    panel.replaceChildren.apply(panel, parts.filter(Boolean));
    panel.setAttribute('data-open', id);
    document.querySelectorAll('.bar.selected').forEach(function (bar) { bar.classList.remove('selected'); bar.removeAttribute('aria-current'); });
    var bar = document.querySelector('.bar[data-bar="' + id + '"]');
    if (bar) { bar.classList.add('selected'); bar.setAttribute('aria-current', 'true'); }
    // Focus stays on the bar, so Tab goes on to the next one; the panel is a live region, read out as it changes.
    if (reveal) panel.scrollIntoView({ block: 'nearest' });
  }
  function goLane(laneId) {
    var label = document.getElementById('lane-' + laneId);
    if (!label) return;
    label.scrollIntoView({ block: 'center' });
    label.focus({ preventScroll: true });
  }

  document.addEventListener('click', function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    var bar = target.closest('[data-bar]');
    if (bar) { open(bar.getAttribute('data-bar'), true); return; }
    var lane = target.closest('[data-lane]');
    if (lane) goLane(lane.getAttribute('data-lane'));
  });

  // Search: every bar whose call, tool, task or session holds the text is marked; Enter opens the next.
  function haystack(entry) {
    var item = entry.item;
    var parts = [entry.session.lineage];
    if (entry.kind === 'model') {
      parts.push('model call ' + item.call, item.request || '', item.text, item.reasoning, item.error || '');
      item.toolCalls.forEach(function (tool) { parts.push(tool.name, tool.arguments); });
      (item.messages || []).forEach(function (message) { parts.push(message.text); });
      if (item.reply) { parts.push(item.reply.text); item.reply.toolCalls.forEach(function (tool) { parts.push(tool.name, tool.arguments); }); }
    } else if (entry.kind === 'tool') parts.push(item.name, item.args, item.output || '');
    else parts.push(item.taskId, item.outcome);
    return parts.join('\\n').toLowerCase();
  }
  var bars = [];
  var texts = new Map();
  // The bars of the timeline shown (the clock switch swaps them for the other clock's).
  function collectBars() {
    bars = Array.prototype.slice.call(document.querySelectorAll('.track .bar[data-bar]'));
    bars.forEach(function (bar) { if (!texts.has(bar)) { var entry = items.get(bar.getAttribute('data-bar')); if (entry) texts.set(bar, haystack(entry)); } });
  }
  collectBars();
  var toolbar = document.querySelector('.toolbar');
  var search = document.getElementById('search');
  var count = document.getElementById('search-count');
  var matches = [];
  var current = -1;
  function find() {
    var query = search.value.trim().toLowerCase();
    matches = [];
    current = -1;
    bars.forEach(function (bar) {
      var hit = query !== '' && (texts.get(bar) || '').indexOf(query) >= 0;
      bar.classList.toggle('match', hit);
      bar.classList.toggle('no-match', query !== '' && !hit);
      if (hit) matches.push(bar);
    });
    count.textContent = query === '' ? '' : matches.length + (matches.length === 1 ? ' match' : ' matches');
  }
  function nextMatch(step) {
    if (matches.length === 0) return;
    current = (current + step + matches.length) % matches.length;
    var bar = matches[current];
    open(bar.getAttribute('data-bar'), false);
    bar.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    count.textContent = (current + 1) + ' of ' + matches.length;
  }
  // Zoom: the timeline widens and scrolls sideways; bars are placed in percent, so they widen with it.
  var inner = document.querySelector('.timeline .timeline-inner');
  var level = document.getElementById('zoom-level');
  var zoom = 1;
  function setZoom(next) {
    zoom = Math.max(1, Math.min(32, next));
    inner.style.width = zoom === 1 ? '' : zoom * 100 + '%';
    level.textContent = zoom + '×';
  }
  if (toolbar && search && inner) {
    toolbar.hidden = false;
    search.addEventListener('input', find);
    search.addEventListener('keydown', function (event) {
      if (event.key === 'Enter') { event.preventDefault(); nextMatch(event.shiftKey ? -1 : 1); }
      if (event.key === 'Escape') { search.value = ''; find(); }
    });
    document.getElementById('zoom-in').addEventListener('click', function () { setZoom(zoom * 2); });
    document.getElementById('zoom-out').addEventListener('click', function () { setZoom(zoom / 2); });
  }
  // The clock switch: the other clock's lanes wait in a template; switching swaps the timeline, keeping zoom, search and the open call.
  var otherTemplate = document.getElementById('other-clock');
  var axisClock = document.getElementById('axis-clock');
  var stashed = {};
  function setClock(timing, label) {
    if (timing === shownClock || !otherTemplate || !inner) return;
    var next = stashed[timing] || document.importNode(otherTemplate.content.querySelector('.timeline-inner'), true);
    stashed[shownClock] = inner;
    inner.replaceWith(next);
    inner = next;
    shownClock = timing;
    setZoom(zoom);
    collectBars();
    find();
    if (axisClock && label) axisClock.textContent = label;
    var opened = panel.getAttribute('data-open');
    if (opened) open(opened, false);
  }
  document.querySelectorAll('input[name="clock"]').forEach(function (radio) {
    radio.addEventListener('change', function () { if (radio.checked) setClock(radio.value, radio.getAttribute('data-label')); });
  });
  // Keyboard: / to search, + and − to zoom, arrows from bar to bar (← → in a lane by time, ↑ ↓ across lanes).
  function laneBars(lane) {
    return Array.prototype.slice.call(lane.querySelectorAll('.track .bar[data-bar]')).sort(function (a, b) {
      return a.getBoundingClientRect().left - b.getBoundingClientRect().left || a.getBoundingClientRect().top - b.getBoundingClientRect().top;
    });
  }
  document.addEventListener('keydown', function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (target && target.closest('input, textarea')) return;
    if (event.key === '/' && search) { event.preventDefault(); search.focus(); return; }
    if ((event.key === '+' || event.key === '=') && inner) { setZoom(zoom * 2); return; }
    if (event.key === '-' && inner) { setZoom(zoom / 2); return; }
    var bar = target && target.closest('.track .bar[data-bar]');
    if (!bar || ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'].indexOf(event.key) < 0) return;
    var lane = bar.closest('.lane');
    var next = null;
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      var inLane = laneBars(lane);
      next = inLane[inLane.indexOf(bar) + (event.key === 'ArrowRight' ? 1 : -1)] || null;
    } else {
      var lanesShown = Array.prototype.slice.call(document.querySelectorAll('.lane'));
      for (var index = lanesShown.indexOf(lane) + (event.key === 'ArrowDown' ? 1 : -1); index >= 0 && index < lanesShown.length && !next; index += event.key === 'ArrowDown' ? 1 : -1) {
        next = laneBars(lanesShown[index])[0] || null;
      }
    }
    if (next) { event.preventDefault(); next.focus(); next.scrollIntoView({ block: 'nearest', inline: 'nearest' }); }
  });

  var failed = null;
  items.forEach(function (entry, id) { if (!failed && entry.kind === 'model' && entry.item.failed) failed = id; });
  if (failed) open(failed, false);
})();
`;
