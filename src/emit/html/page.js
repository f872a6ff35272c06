/* The page of `ragcite serve`: reads the form, calls /api/v1/calculate, renders the envelope. */
(function () {
  'use strict';
  var R = window.RagciteRender, el = R.el;
  function $(id) { return document.getElementById(id); }
  var answer = $('answer'), chunks = $('chunks'), threshold = $('threshold'), lang = $('lang');
  var error = $('error'), result = $('result'), view = $('view');
  var last = null;

  function showError(title, detail, errors) {
    while (error.firstChild) error.removeChild(error.firstChild);
    error.appendChild(el('p', { 'class': 'error-title' }, title));
    if (detail) error.appendChild(el('p', null, detail));
    if (errors && errors.length) {
      var ul = el('ul');
      errors.forEach(function (e) {
        ul.appendChild(el('li', null, el('code', null, e.field), ': ' + e.message));
      });
      error.appendChild(ul);
    }
    error.hidden = false;
  }

  function check() {
    error.hidden = true;
    var body = { answer: answer.value, chunks: chunks.value };
    var t = parseFloat(threshold.value);
    if (!isNaN(t)) body.supportThreshold = t;
    if (lang.value && lang.value !== 'en') body.lang = lang.value;
    $('check').disabled = true;
    fetch('/api/v1/calculate', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().then(function (data) { return { ok: response.ok, data: data }; });
    }).then(function (r) {
      if (!r.ok) {
        showError(r.data.title || 'The check failed', r.data.detail, r.data.errors);
        return;
      }
      last = r.data;
      R.render(view, last, true);
      result.hidden = false;
    }).catch(function (e) {
      showError('The server could not be reached', String(e), []);
    }).then(function () { $('check').disabled = false; });
  }

  $('form').addEventListener('submit', function (e) { e.preventDefault(); check(); });
  [answer, chunks].forEach(function (area) {
    area.addEventListener('keydown', function (e) {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); check(); }
    });
    area.addEventListener('dragover', function (e) { e.preventDefault(); area.classList.add('drop'); });
    area.addEventListener('dragleave', function () { area.classList.remove('drop'); });
    area.addEventListener('drop', function (e) {
      e.preventDefault();
      area.classList.remove('drop');
      var file = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
      if (file) file.text().then(function (text) { area.value = text; });
    });
  });
  $('example').addEventListener('click', function () {
    var example = JSON.parse($('example-data').textContent);
    answer.value = example.answer;
    chunks.value = example.chunks;
    check();
  });
  $('copy-json').addEventListener('click', function () {
    if (!last) return;
    var text = JSON.stringify(last, null, 2);
    var status = $('copy-status');
    var fallback = function () {
      var area = $('json-fallback');
      area.value = text;
      area.hidden = false;
      area.focus();
      area.select();
      status.textContent = 'Press Ctrl+C to copy the selected JSON.';
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () {
        status.textContent = 'JSON copied.';
      }, fallback);
    } else {
      fallback();
    }
  });
  $('download').addEventListener('click', function () {
    if (!last) return;
    var blob = new Blob([JSON.stringify(last, null, 2) + '\n'], { type: 'application/json' });
    var a = el('a', { href: URL.createObjectURL(blob), download: 'ragcite-report.json' });
    document.body.appendChild(a);
    a.click();
    document.body.removeChild(a);
    setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
  });
})();
