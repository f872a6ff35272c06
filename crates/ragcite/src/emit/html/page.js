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
    if (lang.value && lang.value !== 'auto') body.lang = lang.value;
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
  function save(text, type, name) {
    var blob = new Blob([text], { type: type });
    var a = el('a', { href: URL.createObjectURL(blob), download: name });
    document.body.appendChild(a);
    a.click();
    document.body.removeChild(a);
    setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
  }

  function sha256(text) {
    return crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)).then(function (d) {
      var bytes = new Uint8Array(d), s = '';
      for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
      return "'sha256-" + btoa(s) + "'";
    });
  }

  function escapeHtml(s) {
    return s.replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }

  /* The configuration file the server applied, as the command line's footers say it. */
  function configText(config) {
    if (!config) return 'no config';
    if (config.source === 'found') return 'config ' + config.path;
    if (config.source === 'given') return 'config ' + config.path + ' (--config)';
    if (config.source === 'none') return 'no config found';
    return 'no config (--isolated)';
  }

  /* The report `check --format html` writes, built here from the same renderer and stylesheet:
     one self-contained file whose policy allows its inline script and style by their hashes. */
  function report(env) {
    var get = function (path) {
      return fetch(path).then(function (r) {
        if (!r.ok) throw new Error(path + ': ' + r.status);
        return r.text();
      });
    };
    return Promise.all([get('/assets/style.css'), get('/assets/render.js'), get('/assets/report.js')])
      .then(function (files) {
        var css = files[0], script = files[1] + '\n' + files[2];
        var data = Object.assign({}, env);
        delete data.computedAt;
        return Promise.all([sha256(script), sha256(css)]).then(function (h) {
          return '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
            '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; script-src ' + h[0] +
            '; style-src ' + h[1] + '; img-src data:; base-uri \'none\'; form-action \'none\'">\n' +
            '<link rel="icon" href="data:,">\n<title>ragcite report</title>\n<style>' + css + '</style>\n</head>\n' +
            '<body>\n<main id="main">\n<h1>ragcite report</h1>\n<p class="inputs">Threshold ' +
            escapeHtml(String(env.inputs.supportThreshold)) + ', answer read as ' +
            escapeHtml(env.inputs.answerFormat) + ', chunks as ' + escapeHtml(env.inputs.chunksFormat) +
            ', ' + escapeHtml(configText(env.inputs.config)) +
            '.</p>\n<div id="result" aria-live="polite">\n<div id="view"><noscript>This report needs ' +
            'JavaScript to show its result.</noscript></div>\n</div>\n</main>\n' +
            '<script type="application/json" id="envelope">' +
            JSON.stringify(data).replace(/</g, '\\u003c') + '</script>\n<script>' + script +
            '</script>\n</body>\n</html>\n';
        });
      });
  }

  $('download').addEventListener('click', function () {
    if (!last) return;
    var status = $('copy-status');
    var json = function () {
      save(JSON.stringify(last, null, 2) + '\n', 'application/json', 'ragcite-report.json');
      status.textContent = 'The HTML report needs a secure context; saved the JSON instead.';
    };
    if (!window.crypto || !crypto.subtle) { json(); return; }
    report(last).then(function (html) {
      save(html, 'text/html', 'ragcite-report.html');
      status.textContent = 'Report saved.';
    }, json);
  });
})();
