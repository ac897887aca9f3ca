// Sluice's read-only dashboard: polls ./api/state and draws it. Plain DOM; every value goes in as text.
'use strict';

let selected = null;     // {namespace, name} of the Workload whose history is shown
let refreshMillis = 2000;

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined) continue;
    if (k === 'class') e.className = v; else if (k.startsWith('data-')) e.setAttribute(k, v); else e[k] = v;
  }
  for (const c of children) e.append(c === null || c === undefined ? '' : c);
  return e;
}

function time(iso) {
  return iso ? new Date(iso).toISOString().substring(11, 19) : '';
}

function workloadLink(namespace, name) {
  const a = el('a', {class: 'workload-link', 'data-workload': namespace + '/' + name}, namespace + '/' + name);
  a.addEventListener('click', () => { selected = {namespace, name}; showWorkload(); });
  return a;
}

// One flavor/resource: used part in blue up to the nominal quota, borrowed part in orange, nominal as a line.
function bar(r) {
  const limit = r.borrowingLimitMilli === undefined || r.borrowingLimitMilli === null ? r.nominalMilli
      : r.nominalMilli + r.borrowingLimitMilli;
  const scale = Math.max(limit, r.usageMilli, r.nominalMilli, 1);
  const own = Math.min(r.usageMilli, r.nominalMilli);
  const b = el('div', {class: 'bar'},
      el('div', {class: 'used'}),
      el('div', {class: 'borrowed'}),
      el('div', {class: 'nominal'}));
  b.children[0].style.width = (100 * own / scale) + '%';
  b.children[1].style.left = (100 * own / scale) + '%';
  b.children[1].style.width = (100 * Math.max(0, r.usageMilli - r.nominalMilli) / scale) + '%';
  b.children[2].style.left = (100 * r.nominalMilli / scale) + '%';
  const borrowed = r.borrowedMilli ? ', borrowed ' + r.borrowed : '';
  const limitText = r.borrowingLimit ? ' (may borrow ' + r.borrowingLimit + ')' : '';
  return el('div', {class: 'bar-row', 'data-flavor': r.flavor, 'data-resource': r.resource},
      el('span', {}, r.flavor + ' · ' + r.resource),
      b,
      el('span', {class: 'amounts'}, r.usage + ' of ' + r.nominal + limitText + borrowed));
}

function drawCohorts(cohorts) {
  const box = document.getElementById('cohorts');
  box.replaceChildren();
  if (!cohorts.length) { box.append(el('p', {class: 'empty'}, 'none')); return; }
  for (const c of cohorts) {
    const d = el('div', {class: 'cohort', id: 'cohort-' + c.name, 'data-name': c.name},
        el('h3', {}, c.name),
        el('div', {class: 'counts'}, 'ClusterQueues: ' + c.clusterQueues.join(', ')));
    c.resources.forEach(r => d.append(bar(r)));
    box.append(d);
  }
}

function drawQueues(queues) {
  const box = document.getElementById('cluster-queues');
  box.replaceChildren();
  if (!queues.length) { box.append(el('p', {class: 'empty'}, 'none')); return; }
  for (const q of queues) {
    const d = el('div', {class: 'queue', id: 'cq-' + q.name, 'data-name': q.name},
        el('h3', {}, q.name, q.cohort ? el('span', {class: 'counts'}, '  cohort ' + q.cohort) : ''),
        el('div', {class: 'counts'}, q.admitted + ' admitted, '
            + (q.waitingForChecks ? q.waitingForChecks + ' waiting for admission checks, ' : '')
            + q.pending + ' pending (' + q.inadmissible + ' inadmissible)'));
    if (!q.active) d.append(el('div', {class: 'inactive'}, 'inactive: ' + (q.message || '')));
    q.resources.forEach(r => d.append(bar(r)));
    if (q.pendingWorkloads.length) {
      const body = el('tbody');
      for (const p of q.pendingWorkloads) {
        body.append(el('tr', {class: 'pending', 'data-workload': p.namespace + '/' + p.name},
            el('td', {}, String(p.position)),
            el('td', {}, workloadLink(p.namespace, p.name)),
            el('td', {}, p.localQueue),
            el('td', {}, String(p.priority)),
            el('td', {class: 'reason'}, p.reason || p.phase),
            el('td', {}, p.message || ''),
            el('td', {class: 'forecast'}, p.forecast || '')));
      }
      const more = q.pending > q.pendingWorkloads.length
          ? el('div', {class: 'counts'}, 'first ' + q.pendingWorkloads.length + ' of ' + q.pending) : '';
      d.append(el('table', {class: 'pending-list'},
          el('thead', {}, el('tr', {}, ...['#', 'Workload', 'LocalQueue', 'priority', 'reason', 'message',
              'forecast'].map(h => el('th', {}, h)))), body), more);
    }
    box.append(d);
  }
}

function drawRecent(recent) {
  const body = document.querySelector('#recent tbody');
  body.replaceChildren();
  for (const e of recent) {
    body.append(el('tr', {class: 'recent', 'data-reason': e.reason, 'data-workload': e.namespace + '/' + e.workload},
        el('td', {}, time(e.at)),
        el('td', {}, workloadLink(e.namespace, e.workload)),
        el('td', {}, e.reason),
        el('td', {class: 'preemptor'}, e.preemptor || ''),
        el('td', {}, e.message || '')));
  }
}

async function showWorkload() {
  if (!selected) return;
  const q = new URLSearchParams(selected);
  const box = document.getElementById('workload');
  const r = await fetch('api/workload?' + q, {cache: 'no-store'});
  const w = await r.json();
  box.hidden = false;
  document.getElementById('workload-name').textContent = selected.namespace + '/' + selected.name;
  const now = document.getElementById('workload-now');
  if (!r.ok) { now.textContent = w.message; document.querySelector('#history tbody').replaceChildren(); return; }
  now.textContent = w.phase ? w.phase + ' in ClusterQueue ' + w.clusterQueue + (w.message ? ': ' + w.message : '')
      + (w.forecast ? ' — ' + w.forecast : '') : 'no longer queued';
  const body = document.querySelector('#history tbody');
  body.replaceChildren();
  for (const e of w.history) {
    body.append(el('tr', {class: 'history', 'data-reason': e.reason},
        el('td', {}, time(e.at)),
        el('td', {}, e.reason + (e.preemptor ? ' by ' + e.preemptor : '')),
        el('td', {}, e.message || '')));
  }
}

async function poll() {
  const status = document.getElementById('status');
  try {
    const r = await fetch('api/state', {cache: 'no-store'});
    const s = await r.json();
    if (!r.ok) {
      status.textContent = s.message;
      status.className = 'status error';
    } else {
      refreshMillis = s.refreshMillis || refreshMillis;
      drawCohorts(s.cohorts);
      drawQueues(s.clusterQueues);
      drawRecent(s.recent);
      // a simulated run counts virtual time from 00:00:00; a standby or a simulation says so above the page
      status.textContent = s.view === 'simulation' ? 'simulated time ' + time(s.now) + (s.ended ? ' (run ended)' : '')
          : 'as of ' + time(s.now) + ' UTC';
      status.className = 'status';
      const view = document.getElementById('view');
      view.hidden = !s.viewNote;
      view.textContent = s.viewNote || '';
      view.setAttribute('data-view', s.view || 'live');
      status.setAttribute('data-now', s.now);
      await showWorkload();
    }
  } catch (e) {
    status.textContent = 'cannot reach the controller: ' + e;
    status.className = 'status error';
  }
  setTimeout(poll, refreshMillis);
}

poll();
