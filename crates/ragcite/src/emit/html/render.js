/* ragcite's renderer: an API envelope to the highlighted view. Shared by the page of
   `ragcite serve` and the HTML reports; plain JS, no dependency, no build step. */
(function () {
  'use strict';

  var VERDICTS = [
    ['supported', "the cited chunk holds enough of the sentence's words and all its numbers"],
    ['contradicted', 'the passage of a cited chunk that the sentence matches says the opposite'],
    ['number-mismatch', 'a number of the sentence is in none of the chunks it cites'],
    ['misquote', 'a quotation of the sentence is not, word for word, in the chunk it cites'],
    ['weak-support', "the cited chunk holds some of the sentence's words, fewer than the threshold asks"],
    ['unsupported-citation', "the citation points nowhere, or at a chunk that hardly shares the sentence's words"],
    ['uncited-claim', 'a sentence that states something checkable cites nothing'],
    ['no-claim', 'not a claim: a fragment, heading, source-list entry, question, pleasantry, meta statement, pointer to read more, instruction, abstention or background']
  ];
  /* Why a no-claim sentence is not checked: its kind's reason, as `ragcite explain` says it. */
  var KINDS = {
    'fragment': 'fewer than three content words and no number',
    'heading': 'a Markdown heading: a title',
    'reference': "an entry of the answer's source list",
    'question': 'a question, which asserts nothing',
    'pleasantry': 'a greeting, thanks, wish or offer',
    'meta': 'says something about the answer or its sources, not about the world',
    'navigation': 'says where to read more',
    'instruction': 'advice to the reader that asserts nothing checkable',
    'abstention': 'the answer says its sources do not cover this, or declines',
    'background': 'the claim scorer reads framing or common knowledge, nothing to source'
  };
  /* Every table keyed by text from the inputs (chunk ids, words) is a Map or an object with no
     prototype, so that an id or a word such as `__proto__`, `constructor` or `toString` is a
     key like any other, never a property every object inherits. */
  function dict() { return Object.create(null); }

  var MEANING = dict();
  VERDICTS.forEach(function (v) { MEANING[v[0]] = v[1]; });
  var LIMITS = 'ragcite measures lexical overlap, not entailment: a reworded claim can look ' +
    'unsupported and a subtly changed one can look supported. Shared words are marked ' +
    'approximately (whole words, no stemming). Treat the verdicts as pointers for review.';

  function el(tag, attrs) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (attrs[k] === null || attrs[k] === undefined || attrs[k] === false) return;
        if (k === 'text') node.textContent = attrs[k];
        else node.setAttribute(k, attrs[k] === true ? '' : attrs[k]);
      });
    }
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c === null || c === undefined) continue;
      node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    }
    return node;
  }

  function block(env, kind) {
    var list = (env && env.presentation) || [];
    for (var i = 0; i < list.length; i++) if (list[i].kind === kind) return list[i];
    return null;
  }

  var encoder = new TextEncoder();
  var decoder = new TextDecoder();

  /* Spans are UTF-8 byte offsets; JS strings are UTF-16: slice the bytes, decode. */
  function byteSlice(bytes, a, b) { return decoder.decode(bytes.subarray(a, b)); }

  var WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

  function words(text) {
    var out = [];
    text.replace(WORD, function (w) { out.push(w.toLowerCase()); return w; });
    return out;
  }

  /* English function words, never marked as shared (approximate for other languages). */
  var STOP = dict();
  ('the and for are but not all any can had has have her his its was were with that this ' +
   'from they them their there these those than then into onto our you your she him who whom ' +
   'which what when where why how also been being does did done per via out off over under ' +
   'about after before more most such only own same some very just').split(' ')
    .forEach(function (w) { STOP[w] = true; });

  /* The sentence's words worth marking: 3+ letters, not function words, not markers' numbers. */
  function keyWords(sentenceText) {
    var want = dict();
    words(sentenceText.replace(/\[[^\]]*\]/g, ' ')).forEach(function (w) {
      if (w.length >= 3 && !STOP[w]) want[w] = true;
    });
    return want;
  }

  /* The chunk's text with the sentence's words (3+ letters, not missing) marked. */
  function sharedText(chunkText, sentenceText, missing) {
    var miss = dict();
    (missing || []).forEach(function (w) { miss[w.toLowerCase()] = true; });
    var want = keyWords(sentenceText);
    Object.keys(miss).forEach(function (w) { delete want[w]; });
    var frag = document.createDocumentFragment();
    var last = 0;
    chunkText.replace(WORD, function (w, offset) {
      if (want[w.toLowerCase()]) {
        if (offset > last) frag.appendChild(document.createTextNode(chunkText.slice(last, offset)));
        frag.appendChild(el('mark', { 'class': 'shared' }, w));
        last = offset + w.length;
      }
      return w;
    });
    if (last < chunkText.length) frag.appendChild(document.createTextNode(chunkText.slice(last)));
    return frag;
  }

  function escapeRegExp(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); }

  /* The sentence's pieces: markers and missing numbers, as UTF-16 ranges of `text`. */
  function pieces(text, sbytes, details) {
    var out = [];
    (details.markerSpans || []).forEach(function (m) {
      var a = byteSlice(sbytes, 0, m.start).length;
      var b = a + byteSlice(sbytes, m.start, m.end).length;
      out.push({ a: a, b: b, marker: m });
    });
    (details.missingNumbers || []).forEach(function (n) {
      var re = new RegExp('(^|[^\\p{N}.,])(' + escapeRegExp(n) + ')(?![\\p{N}])', 'gu');
      var m;
      while ((m = re.exec(text)) !== null) {
        var a = m.index + m[1].length, b = a + m[2].length;
        var overlaps = out.some(function (p) { return a < p.b && p.a < b; });
        if (!overlaps) { out.push({ a: a, b: b, number: n }); break; }
      }
    });
    out.sort(function (x, y) { return x.a - y.a; });
    return out;
  }

  function View(root, env, ids) {
    this.root = root;
    this.env = env;
    this.ids = ids;
    this.chunkTexts = new Map();
    var chunks = block(env, 'chunks');
    var self = this;
    ((chunks && chunks.chunks) || []).forEach(function (c) { self.chunkTexts.set(c.id, c.text); });
  }

  View.prototype.attrs = function (name, extra) {
    var a = extra || {};
    a['class'] = name + (a['class'] ? ' ' + a['class'] : '');
    if (this.ids) a.id = name;
    return a;
  };

  View.prototype.render = function () {
    var env = this.env, root = this.root;
    while (root.firstChild) root.removeChild(root.firstChild);
    var gate = block(env, 'gate');
    var passed = gate ? gate.passed : null;
    root.appendChild(el('p', this.attrs('summary'), gate ? gate.summary : env.summary));
    if (passed !== null) {
      root.appendChild(el('p', this.attrs('gate', { 'data-passed': String(passed) }),
        passed ? 'Gate passed' : 'Gate failed'));
    }
    var warnings = el('ul', this.attrs('warnings', { 'aria-label': 'Warnings' }));
    var said = (env.warnings || []).join(' ');
    (env.warnings || []).forEach(function (w) { warnings.appendChild(el('li', null, w)); });
    var unknown = (env.result && env.result.unknownMarkers) || [];
    if (unknown.length && said.indexOf('unknown marker') < 0) {
      warnings.appendChild(el('li', null, 'unknown markers (they name no chunk): ' + unknown.join(', ')));
    }
    root.appendChild(warnings);
    root.appendChild(el('p', this.attrs('limits'), LIMITS));
    var legend = el('ul', this.attrs('legend', { 'aria-label': 'Verdicts' }));
    VERDICTS.forEach(function (v) {
      legend.appendChild(el('li', { 'class': 'verdict-' + v[0], title: v[1] }, v[0]));
    });
    root.appendChild(legend);
    root.appendChild(el('h2', null, 'Answer'));
    root.appendChild(this.answerView());
    root.appendChild(this.panel());
    root.appendChild(el('h2', null, 'Chunks'));
    root.appendChild(this.chunkList());
  };

  View.prototype.answerView = function () {
    var view = el('div', this.attrs('answer-view'));
    var answer = block(this.env, 'answer');
    var details = block(this.env, 'sentences');
    var text = answer ? answer.text : '';
    var bytes = encoder.encode(text);
    var sentences = (details && details.sentences) || [];
    var at = 0, self = this;
    sentences.forEach(function (d) {
      if (d.span.start > at) view.appendChild(document.createTextNode(byteSlice(bytes, at, d.span.start)));
      view.appendChild(self.sentence(bytes, d));
      at = Math.max(at, d.span.end);
    });
    if (at < bytes.length) view.appendChild(document.createTextNode(byteSlice(bytes, at, bytes.length)));
    return view;
  };

  View.prototype.sentence = function (bytes, d) {
    var sbytes = bytes.subarray(d.span.start, d.span.end);
    var text = decoder.decode(sbytes);
    var decided = d.decidingChunk ? ' (decided by chunk ' + d.decidingChunk + ')' : '';
    var span = el('span', {
      'class': 'sentence verdict-' + d.verdict, 'data-index': String(d.index),
      'data-verdict': d.verdict, 'data-deciding-chunk': d.decidingChunk || null,
      title: d.verdict + ': ' + (MEANING[d.verdict] || '') + decided
    });
    var at = 0, self = this;
    pieces(text, sbytes, d).forEach(function (p) {
      if (p.a < at) return;
      if (p.a > at) span.appendChild(document.createTextNode(text.slice(at, p.a)));
      var t = text.slice(p.a, p.b);
      if (p.number) {
        span.appendChild(el('mark', { 'class': 'missing-number', title: 'number not in the cited chunks' }, t));
      } else if (p.marker.chunks.length) {
        var id = p.marker.chunks[0];
        var a = el('a', { 'class': 'marker', href: '#chunk-' + id, 'data-chunk': id,
          'aria-label': 'citation ' + t + ', chunk ' + id }, t);
        self.opener(a, id, text, d);
        span.appendChild(a);
      } else {
        span.appendChild(el('span', { 'class': 'marker unknown', title: 'this marker names no chunk' }, t));
      }
      at = p.b;
    });
    if (at < text.length) span.appendChild(document.createTextNode(text.slice(at)));
    if (d.suggestedCitation) {
      var b = el('button', { type: 'button', 'class': 'suggestion', 'data-chunk': d.suggestedCitation },
        'suggested: [' + d.suggestedCitation + ']');
      this.opener(b, d.suggestedCitation, text, d);
      span.appendChild(document.createTextNode(' '));
      span.appendChild(b);
    }
    span.appendChild(document.createTextNode(' '));
    span.appendChild(el('span', { 'class': 'verdict-badge' }, d.verdict));
    if (d.kind) {
      var why = 'not a claim: ' + d.kind + (d.kindCue ? ' ("' + d.kindCue + '")' : '') +
        ' — ' + (KINDS[d.kind] || '');
      span.appendChild(document.createTextNode(' '));
      span.appendChild(el('small', { 'class': 'kind kind-' + d.kind, 'data-kind': d.kind, title: why }, d.kind));
    }
    (d.quotes || []).forEach(function (q) {
      if (q.found) return;
      var box = el('div', { 'class': 'misquote' },
        el('span', { 'class': 'quote' }, 'Quoted: “' + q.text + '”'));
      if (q.closest) {
        box.appendChild(el('span', { 'class': 'closest' },
          'Closest in chunk ' + (q.chunk || '?') + ': “' + q.closest.text + '”'));
        var inQuote = words(q.text), inClosest = words(q.closest.text);
        var only = function (a, b) { return a.filter(function (w) { return b.indexOf(w) < 0; }); };
        var quoted = only(inQuote, inClosest), instead = only(inClosest, inQuote);
        box.appendChild(el('span', { 'class': 'differing' },
          'Differing words (' + q.closest.differingWords + '): quoted ' +
          (quoted.join(', ') || '—') + '; the chunk has ' + (instead.join(', ') || '—')));
      } else {
        box.appendChild(el('span', { 'class': 'closest' }, 'No close passage in the cited chunks.'));
        box.appendChild(el('span', { 'class': 'differing' }, 'Differing words: all'));
      }
      span.appendChild(box);
    });
    if (d.contradiction) span.appendChild(contradictionBox(d.contradiction));
    var cited = d.citedChunks || [];
    if (cited.length > 1) span.appendChild(citationList(cited, d.decidingChunk));
    return span;
  };

  var FINDINGS = { 'supports': 'supports', 'partly': 'partly supports', 'adds-nothing': 'adds nothing' };

  /* What a cited chunk says against the sentence: its passage, the contradicting words marked
     (found as written, else without regard to case; else shown on their own). */
  function contradictionBox(c) {
    var box = el('div', { 'class': 'contradiction', 'data-chunk': c.chunk, 'data-kind': c.kind },
      el('span', { 'class': 'contradiction-title' },
        'Chunk ' + c.chunk + ' says the opposite (' + c.kind + '):'));
    var passage = c.passage || '', words = c.chunkWords || '';
    var at = words ? passage.indexOf(words) : -1;
    if (at < 0 && words) at = passage.toLowerCase().indexOf(words.toLowerCase());
    var line = el('span', { 'class': 'passage' });
    if (at >= 0) {
      line.appendChild(document.createTextNode(passage.slice(0, at)));
      line.appendChild(el('mark', { 'class': 'contradicting' }, passage.slice(at, at + words.length)));
      line.appendChild(document.createTextNode(passage.slice(at + words.length)));
    } else {
      line.appendChild(el('mark', { 'class': 'contradicting' }, words));
      if (passage) line.appendChild(document.createTextNode(' in “' + passage + '”'));
    }
    box.appendChild(line);
    if (c.sentenceWords) {
      box.appendChild(el('span', { 'class': 'sentence-words' }, 'The sentence says: ' + c.sentenceWords));
    }
    return box;
  }

  /* Each cited chunk's own finding, the deciding one named. */
  function citationList(cited, deciding) {
    var list = el('ul', { 'class': 'citations', 'aria-label': 'Each citation' });
    cited.forEach(function (c) {
      var text = 'chunk ' + c.chunk + ': ' + (FINDINGS[c.finding] || c.finding) +
        ' (support ' + Number(c.support).toFixed(2) + ')' + (c.chunk === deciding ? ', decided' : '');
      list.appendChild(el('li', { 'class': 'finding-' + c.finding, 'data-chunk': c.chunk,
        'data-deciding': c.chunk === deciding ? 'true' : null }, text));
    });
    return list;
  }

  View.prototype.opener = function (node, id, text, d) {
    var self = this;
    node.addEventListener('click', function (e) {
      e.preventDefault();
      self.open(id, text, d, node);
    });
  };

  View.prototype.panel = function () {
    var p = el('section', this.attrs('chunk-panel', { role: 'region', tabindex: '-1', hidden: true,
      'aria-labelledby': this.ids ? 'chunk-panel-title' : null,
      'aria-label': this.ids ? null : 'Cited chunk' }));
    this.panelTitle = el('h3', this.attrs('chunk-panel-title'));
    this.panelText = el('p', this.attrs('chunk-panel-text'));
    this.panelMissing = el('ul', this.attrs('chunk-panel-missing', { 'aria-label': 'Words the chunk lacks' }));
    var close = el('button', this.attrs('chunk-panel-close', { type: 'button' }), 'Close');
    var self = this;
    close.addEventListener('click', function () { self.close(); });
    p.addEventListener('keydown', function (e) {
      if (e.key === 'Escape') { e.preventDefault(); self.close(); }
    });
    p.appendChild(this.panelTitle);
    p.appendChild(this.panelText);
    p.appendChild(el('p', { 'class': 'missing-label' }, 'Words of the sentence the chunk lacks:'));
    p.appendChild(this.panelMissing);
    p.appendChild(close);
    this.panelNode = p;
    return p;
  };

  View.prototype.open = function (id, sentenceText, d, trigger) {
    var text = this.chunkTexts.get(id);
    this.trigger = trigger;
    this.panelTitle.textContent = 'Chunk ' + id;
    while (this.panelText.firstChild) this.panelText.removeChild(this.panelText.firstChild);
    if (text === undefined) this.panelText.textContent = '(no text for this chunk)';
    /* The check's missing words are those no cited chunk holds: the chunk's own when it is
       the only one cited; for another chunk (a suggestion, or one of several cited), the
       sentence's words its text lacks, found here without stemming. */
    var cited = (d.cited || []).indexOf(id) >= 0 && (d.cited || []).length === 1;
    var missing = d.missingWords || [];
    if (!cited && text !== undefined) {
      var inChunk = dict();
      words(text).forEach(function (w) { inChunk[w] = true; });
      missing = Object.keys(keyWords(sentenceText)).filter(function (w) { return !inChunk[w]; });
    }
    if (text !== undefined) this.panelText.appendChild(sharedText(text, sentenceText, cited ? missing : []));
    while (this.panelMissing.firstChild) this.panelMissing.removeChild(this.panelMissing.firstChild);
    if (!missing.length) this.panelMissing.appendChild(el('li', { 'class': 'none' }, 'none'));
    var self = this;
    missing.forEach(function (w) { self.panelMissing.appendChild(el('li', null, w)); });
    this.panelNode.hidden = false;
    this.panelNode.focus();
  };

  View.prototype.close = function () {
    this.panelNode.hidden = true;
    if (this.trigger) this.trigger.focus();
  };

  View.prototype.chunkList = function () {
    var list = el('ol', this.attrs('chunk-list'));
    var self = this;
    ((this.env.result && this.env.result.chunks) || []).forEach(function (c) {
      list.appendChild(el('li', { 'class': 'chunk status-' + c.status,
        id: self.ids ? 'chunk-' + c.id : null, 'data-status': c.status },
        el('span', { 'class': 'chunk-id' }, c.id),
        ' ',
        el('span', { 'class': 'chunk-status' }, c.status),
        ' ',
        el('span', { 'class': 'chunk-preview' }, c.preview)));
    });
    return list;
  };

  /* Renders `env` into `root`; `ids`: give the elements their ids (once per document). */
  function render(root, env, ids) {
    var view = new View(root, env, ids);
    view.render();
    return view;
  }

  window.RagciteRender = { render: render, verdicts: VERDICTS, block: block, el: el };
})();
