/* The single-answer report: renders the envelope of its JSON block. */
(function () {
  'use strict';
  var data = document.getElementById('envelope');
  var view = document.getElementById('view');
  if (data && view) window.RagciteRender.render(view, JSON.parse(data.textContent), true);
})();
