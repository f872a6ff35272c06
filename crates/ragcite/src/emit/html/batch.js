/* The batch report: a table of records built 500 rows at a time, sorted and filtered in
   memory; a record's envelope is parsed and rendered only when its row is expanded. */
(function () {
  'use strict';
  var R = window.RagciteRender, el = R.el;
  var PAGE = 500;
  var COLUMNS = ['index', 'id', 'sentences', 'supported', 'uncited', 'number-mismatch',
    'unsupported', 'weak', 'misquote', 'contradicted', 'failures'];
  var rows = [];
  document.querySelectorAll('script.row-data').forEach(function (s) { rows.push(JSON.parse(s.textContent)); });
  var main = document.getElementById('main');
  var end = document.getElementById('batch-end');
  var totals = document.getElementById('totals');
  if (end && totals) totals.appendChild(end);
  var tbody = document.querySelector('#records tbody');
  var filter = document.getElementById('filter');
  var show = document.getElementById('show');
  var count = document.getElementById('shown-count');
  var more = document.getElementById('more');
  var sortKey = 'index', sortDir = 1;
  var shown = [], built = 0;

  function haystack(r) {
    return [r.id, r.file, r.error || '', (r.verdicts || []).join(' '), (r.failing || []).join(' ')]
      .join('\n').toLowerCase();
  }
  rows.forEach(function (r) { r.hay = haystack(r); });

  function value(r, key) {
    var v = r[key];
    if (key === 'id') return String(v);
    return typeof v === 'number' ? v : -1;
  }

  function apply() {
    var q = filter.value.trim().toLowerCase();
    var which = show.value;
    shown = rows.filter(function (r) {
      if (which === 'failing' && r.status !== 'failing') return false;
      if (which === 'passing' && r.status !== 'passed') return false;
      if (which === 'bad' && r.status !== 'bad') return false;
      return !q || r.hay.indexOf(q) >= 0;
    });
    shown.sort(function (a, b) {
      var x = value(a, sortKey), y = value(b, sortKey);
      var c = typeof x === 'string' ? x.localeCompare(y) : x - y;
      return (c || a.index - b.index) * sortDir;
    });
    while (tbody.firstChild) tbody.removeChild(tbody.firstChild);
    built = 0;
    buildMore();
  }

  function cell(text) { return el('td', null, String(text)); }

  function row(r) {
    var tr = el('tr', { 'class': 'record', 'data-index': String(r.index), 'data-id': r.id,
      'data-status': r.status });
    var button = el('button', { type: 'button', 'class': 'expand', 'aria-expanded': 'false',
      'aria-label': 'Details of record ' + r.id }, 'Details');
    tr.appendChild(cell(r.index));
    tr.appendChild(el('td', null, el('span', { 'class': 'record-id' }, r.id),
      el('span', { 'class': 'record-file' }, r.file + ':' + r.line)));
    if (r.status === 'bad') {
      tr.appendChild(el('td', { colspan: '8', 'class': 'error' }, r.error));
      tr.appendChild(el('td', null, 'bad record'));
      tr.appendChild(el('td', null, button));
    } else {
      ['sentences', 'supported', 'uncited', 'number-mismatch', 'unsupported', 'weak', 'misquote',
        'contradicted']
        .forEach(function (k) { tr.appendChild(cell(r[k])); });
      tr.appendChild(el('td', { 'class': 'failing' }, r.failing.length ? r.failing.join('; ') : 'none'));
      tr.appendChild(el('td', null, button));
    }
    button.addEventListener('click', function () { toggle(tr, r, button); });
    return tr;
  }

  function toggle(tr, r, button) {
    var open = button.getAttribute('aria-expanded') === 'true';
    if (open) {
      if (tr.nextSibling && tr.nextSibling.classList.contains('detail')) tbody.removeChild(tr.nextSibling);
      button.setAttribute('aria-expanded', 'false');
      return;
    }
    var data = document.getElementById('record-' + r.index);
    var box = el('div', { 'class': 'record-view' });
    var td = el('td', { colspan: String(COLUMNS.length + 1) }, box);
    tbody.insertBefore(el('tr', { 'class': 'detail' }, td), tr.nextSibling);
    if (r.status === 'bad') {
      box.appendChild(el('p', { 'class': 'error' }, r.error));
      if (r.excerpt) box.appendChild(el('pre', { 'class': 'excerpt' }, r.excerpt));
    } else if (data) {
      R.render(box, JSON.parse(data.textContent), false);
    }
    button.setAttribute('aria-expanded', 'true');
  }

  function buildMore() {
    var stop = Math.min(shown.length, built + PAGE);
    var frag = document.createDocumentFragment();
    for (; built < stop; built++) frag.appendChild(row(shown[built]));
    tbody.appendChild(frag);
    more.hidden = built >= shown.length;
    count.textContent = shown.length + ' of ' + rows.length + ' records match' +
      (built < shown.length ? ' (' + built + ' shown)' : '');
  }

  document.querySelectorAll('#records th button[data-sort]').forEach(function (b) {
    b.addEventListener('click', function () {
      var key = b.getAttribute('data-sort');
      sortDir = key === sortKey ? -sortDir : 1;
      sortKey = key;
      document.querySelectorAll('#records th[aria-sort]').forEach(function (th) {
        th.setAttribute('aria-sort', 'none');
      });
      b.parentNode.setAttribute('aria-sort', sortDir > 0 ? 'ascending' : 'descending');
      apply();
    });
  });
  var timer = null;
  filter.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(apply, 120);
  });
  show.addEventListener('change', apply);
  more.addEventListener('click', buildMore);
  if (main) main.setAttribute('data-ready', 'true');
  apply();
})();
