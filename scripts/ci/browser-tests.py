#!/usr/bin/env python3
"""The page that `ragcite serve` serves at / and the HTML reports (`check --format html`,
`batch --format html`) in a real browser: Playwright for Python driving Debian's Chromium
(/usr/bin/chromium, never a browser that Playwright downloads), axe-core for accessibility.

Usage: python3 scripts/ci/browser-tests.py BIN --axe PATH/axe.min.js --screenshots DIR
                                        [--chromium /usr/bin/chromium] [--records 20000]
       python3 scripts/ci/browser-tests.py BIN --readme-image docs/images/report.png

  BIN           the ragcite binary (target/debug/ragcite)
  --axe         axe.min.js from the npm package axe-core (`npm install axe-core@4.14.1`)
  --screenshots where the screenshots go (1280 and 360 px wide; CI keeps them as artifacts)
  --records     the size of the generated transcript for the large report (0 skips it)
  --readme-image  only write the README's image: the worked example's `check --format html`
                report at 1100 px wide, with sentence 2's chunk panel open, no checks run

What it checks: the page (the worked example's verdicts, gate and missing number, the chunk panel
by mouse and by keyboard, an answer of one's own with Ctrl+Enter, an unknown marker, a misquote,
the API's error for bad chunks, no sideways scroll at 360 px); the reports of `check` (the worked
example, a misquote, a contradiction, each citation's finding and the deciding chunk, chunk ids such as __proto__) and `batch` (testdata transcripts: filter, show, sort, expand; 20,000
generated records: time to first rows and to filter, printed, with a 30 s sanity bound); on all
of them, no request off the machine, no CSP violation, no console or uncaught error, no <script>
rendered as text, and no serious or critical axe-core violation.

Every check prints one `PASS name` or `FAIL name: why` line; the run ends with the plain
closing line `browser: N passed, N failed` and exits 1 when a check failed (2 on a usage error).
Nothing leaves the machine: the server listens on 127.0.0.1, every request the browser makes is
recorded and any that is not to the server's origin (or a file:// report) is aborted and fails
the check.

The DOM contract the checks rely on:
  page   textarea#answer, textarea#chunks, input#threshold, select#lang, button#check,
         button#example (Ctrl+Enter in a textarea checks); #error[role=alert] (hidden attribute
         when no error, an <li> per errors[] with field and message); #result (hidden until a
         result) with #summary, #gate[data-passed="true"|"false"] ("Gate passed"/"Gate failed"),
         ul#warnings > li, #limits ("lexical", "not entailment"), #legend (.verdict-<name>),
         #answer-view span.sentence[data-index (1-based)][data-verdict][title] > span.verdict-badge,
         a.marker[data-chunk][href="#chunk-<id>"], span.marker.unknown, mark.missing-number,
         button.suggestion[data-chunk], div.misquote (.closest, .differing); span.sentence
         [data-deciding-chunk], ul.citations > li[data-chunk][data-deciding] (several cited), div.contradiction
         (.passage > mark.contradicting); #chunk-panel[role=region]
         with #chunk-panel-title, #chunk-panel-text (mark.shared), ul#chunk-panel-missing,
         button#chunk-panel-close, Esc closes it and gives focus back; ol#chunk-list >
         li.chunk[id="chunk-<id>"][data-status]; button#copy-json, button#download. Served with
         a Content-Security-Policy (default-src 'none'; script-src 'self'; ...).
  check  --format html: the same result elements, no form; a CSP meta with sha256 hashes.
  batch  --format html: #summary, #gate[data-passed], input#filter, select#show (all, failing,
         passing, bad), #shown-count, table#records with th[aria-sort] > button[data-sort=index|id|
         sentences|supported|uncited|number-mismatch|unsupported|weak|misquote|failures], rows
         tr.record[data-index][data-id][data-status=passed|failing|bad] > button.expand[aria-expanded],
         expanding inserts tr.detail with .answer-view .sentence[data-verdict] and .chunk-list.

axe-core is injected with page.add_script_tag in a second browser context opened with
bypass_csp=True, because the page's Content-Security-Policy (script-src 'self') and the reports'
(sha256 hashes of their inline blocks) rightly refuse a script they do not know. The functional
checks run in a context without it, where a CSP violation is a failure.
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect, sync_playwright

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts" / "ci"))
from serve_process import Server  # noqa: E402

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
EXAMPLE_VERDICTS = ["supported", "number-mismatch", "unsupported-citation", "uncited-claim"]
TIMEOUT_MS = 15_000
# Transcripts that `batch` reads, in several formats, passing, failing and bad records.
BATCH_INPUTS = [
    "testdata/ci/batch.jsonl",
    "testdata/batch/ragas.jsonl",
    "testdata/batch/deepeval.jsonl",
    "testdata/batch/langchain.jsonl",
    "testdata/batch/llamaindex.jsonl",
    "testdata/batch/haystack.jsonl",
    "testdata/batch/custom.jsonl",
    "testdata/batch/small.jsonl",
    "testdata/batch/bad_records.jsonl",
]

VISIBLE_ROWS_JS = """() => [...document.querySelectorAll('table#records tbody tr.record')]
    .filter(r => r.checkVisibility({visibilityProperty: true}))
    .map(r => ({index: r.dataset.index, id: r.dataset.id, status: r.dataset.status}))"""
CSP_LISTENER_JS = """window.__csp = [];
document.addEventListener('securitypolicyviolation', e => window.__csp.push(
    e.violatedDirective + ' ' + (e.blockedURI || '') + ' ' + (e.sourceFile || '') + ':' + e.lineNumber));"""


class Failure(Exception):
    pass


def ensure(condition, message):
    if not condition:
        raise Failure(message)


def brief(error):
    """Playwright's message without its call log, but with the locator it waited for."""
    lines = [line.strip() for line in str(error).strip().splitlines() if line.strip()]
    head = []
    for line in lines:
        if line.startswith("Call log"):
            break
        head.append(line)
    waited = [line.lstrip("- ") for line in lines if "waiting for" in line][:1]
    return " | ".join(head[:4] + waited)


class Runner:
    def __init__(self):
        self.passed = 0
        self.failed = []

    def check(self, name, function, *args, needs=None):
        """Runs one check; any exception is that check's failure, the others still run. With
        needs=(ok, why) and not ok, the check fails at once with why (no 15 s timeouts)."""
        if needs is not None and not needs[0]:
            self._fail(name, needs[1])
            return False
        try:
            function(*args)
        except Failure as error:
            self._fail(name, str(error))
        except (AssertionError, PlaywrightError) as error:
            self._fail(name, f"{type(error).__name__}: {brief(error)}")
        except Exception as error:  # a bug in the check itself is reported, not swallowed
            self._fail(name, f"{type(error).__name__}: {error}\n{traceback.format_exc()}")
        else:
            self.passed += 1
            print(f"PASS {name}", flush=True)
            return True
        return False

    def _fail(self, name, why):
        self.failed.append(name)
        print(f"FAIL {name}: {why}", flush=True)


class Watch:
    """What a browser context did: every request, console errors, page errors, CSP violations.
    Requests elsewhere than `allowed` prefixes are aborted and recorded as outside."""

    def __init__(self, context, allowed):
        self.allowed = allowed
        self.requests = []
        self.outside = []
        self.console_errors = []
        self.page_errors = []
        self.expected_console = []  # regexes of console errors a check provokes on purpose
        context.add_init_script(CSP_LISTENER_JS)
        context.route("**/*", self._route)
        context.on("request", self._request)
        context.on("console", self._console)
        context.on("weberror", lambda e: self.page_errors.append(str(e.error)))

    def _inside(self, url):
        return url.startswith("data:") or any(url.startswith(a) for a in self.allowed)

    def _route(self, route):
        if self._inside(route.request.url):
            route.continue_()
        else:
            route.abort("blockedbyclient")

    def _request(self, request):
        self.requests.append(request.url)
        if not self._inside(request.url):
            self.outside.append(request.url)

    def _console(self, message):
        if message.type == "error":
            text = message.text
            if not any(re.search(p, text) for p in self.expected_console):
                self.console_errors.append(text)

    def csp_violations(self, page):
        try:
            return page.evaluate("() => window.__csp || []")
        except PlaywrightError:
            return []

    def verify(self, page, what):
        """Fails when anything went outside, or a console error or CSP violation was reported."""
        problems = []

        def unique(items):
            return list(dict.fromkeys(item if len(item) < 240 else item[:240] + "…" for item in items))

        if self.outside:
            problems.append(f"requests outside {self.allowed}: {unique(self.outside)}")
        csp = self.csp_violations(page)
        if csp:
            problems.append(f"CSP violations: {unique(csp)}")
        if self.console_errors:
            problems.append(f"console errors: {unique(self.console_errors)}")
        if self.page_errors:
            problems.append(f"uncaught errors: {unique(self.page_errors)}")
        ensure(not problems, f"{what}: " + "; ".join(problems))
        ensure(self.requests, f"{what}: no request was recorded (the recorder is broken)")


def visible_rows(page):
    return page.evaluate(VISIBLE_ROWS_JS)


def verdicts(page, scope="#answer-view"):
    return page.eval_on_selector_all(
        f"{scope} .sentence[data-verdict]", "els => els.map(e => e.dataset.verdict)"
    )


def shown_result(page):
    """Waits for a result or an error; an error fails the check with the page's own words."""
    page.wait_for_selector("#answer-view .sentence[data-verdict], #error:not([hidden])", state="visible")
    error = page.locator("#error")
    if error.is_visible():
        text = " ".join(error.inner_text().split())
        raise Failure(f"#error shows instead of a result: {text[:300]}")


def run_example(page):
    page.click("button#example")
    shown_result(page)
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#answer-view .sentence[data-verdict]")).to_have_count(4)


# --- the page ----------------------------------------------------------------------------------


def page_loads(page, base):
    response = page.goto(base + "/")
    ensure(response is not None and response.status == 200, f"GET / answered {response and response.status}")
    csp = response.headers.get("content-security-policy", "")
    for directive in ("default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'"):
        ensure(directive in csp, f"the page's Content-Security-Policy lacks {directive!r}: {csp!r}")
    for selector in ("textarea#answer", "textarea#chunks", "input#threshold", "select#lang",
                     "button#check", "button#example"):
        expect(page.locator(selector)).to_have_count(1)
    expect(page.locator("#result")).to_have_count(1)
    expect(page.locator("#result")).to_be_hidden()
    error = page.locator("#error")
    expect(error).to_have_attribute("role", "alert")
    ensure(error.get_attribute("hidden") is not None, "#error has no hidden attribute before any error")


def worked_example(page):
    run_example(page)
    got = verdicts(page)
    ensure(got == EXAMPLE_VERDICTS, f"verdicts {got}, expected {EXAMPLE_VERDICTS}")
    no_rendered_scripts(page, "page")
    for i, verdict in enumerate(EXAMPLE_VERDICTS, start=1):
        sentence = page.locator(f'#answer-view .sentence[data-index="{i}"]')
        expect(sentence).to_have_attribute("data-verdict", verdict)
        ensure(sentence.get_attribute("title"), f"sentence {i} has no title")
        expect(sentence.locator(".verdict-badge")).to_have_text(re.compile(re.escape(verdict)))
    gate = page.locator("#gate")
    expect(gate).to_have_attribute("data-passed", "false")
    expect(gate).to_contain_text("Gate failed")
    expect(page.locator("#summary")).not_to_be_empty()
    missing = page.locator('#answer-view .sentence[data-index="2"] mark.missing-number')
    expect(missing).to_have_count(1)
    expect(missing).to_have_text(re.compile(r"1888"))
    limits = page.locator("#limits")
    expect(limits).to_be_visible()
    expect(limits).to_contain_text("lexical")
    expect(limits).to_contain_text("not entailment")
    for verdict in EXAMPLE_VERDICTS:
        expect(page.locator(f"#legend .verdict-{verdict}").first).to_contain_text(verdict)
    expect(page.locator("ol#chunk-list > li.chunk")).to_have_count(5)
    for i in range(1, 6):
        item = page.locator(f'ol#chunk-list > li.chunk[id="chunk-{i}"]')
        expect(item).to_have_count(1)
        ensure(item.get_attribute("data-status"), f"chunk {i} has no data-status")
    # Sentence 3 cites chunk 3; chunk 4 is the one that supports it.
    expect(page.locator('#result button.suggestion[data-chunk="4"]').first).to_be_visible()
    marker = page.locator('#answer-view .sentence[data-index="1"] a.marker')
    expect(marker).to_have_attribute("data-chunk", "1")
    expect(marker).to_have_attribute("href", "#chunk-1")
    expect(page.locator("button#copy-json")).to_be_visible()
    expect(page.locator("button#download")).to_be_visible()


def chunk_panel_mouse(page):
    marker = page.locator('#answer-view .sentence[data-index="1"] a.marker').first
    marker.click()
    panel = page.locator("#chunk-panel")
    expect(panel).to_be_visible()
    expect(panel).to_have_attribute("role", "region")
    expect(page.locator("#chunk-panel-title")).not_to_be_empty()
    expect(page.locator("#chunk-panel-text")).to_contain_text("330 metres")
    shared = page.locator("#chunk-panel-text mark.shared").count()
    ensure(shared >= 1, "no mark.shared in #chunk-panel-text")
    expect(page.locator("ul#chunk-panel-missing")).to_have_count(1)
    expect(page.locator("button#chunk-panel-close")).to_be_visible()
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(marker).to_be_focused()
    # The close button closes it too.
    marker.click()
    expect(panel).to_be_visible()
    page.click("button#chunk-panel-close")
    expect(panel).to_be_hidden()


def chunk_panel_keyboard(page):
    marker = page.locator('#answer-view .sentence[data-index="1"] a.marker').first
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    for _ in range(120):
        if marker.evaluate("m => m === document.activeElement"):
            break
        page.keyboard.press("Tab")
    else:
        raise Failure("120 presses of Tab from the top of the page never reached the first marker")
    page.keyboard.press("Enter")
    panel = page.locator("#chunk-panel")
    expect(panel).to_be_visible()
    expect(page.locator("#chunk-panel-text")).to_contain_text("330 metres")
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(marker).to_be_focused()


def own_input(page, base):
    page.goto(base + "/")
    answer = page.locator("textarea#answer")
    answer.fill("")
    answer.press_sequentially("The Rhine is 1,230 kilometres long [1]. It flows into the North Sea [2].")
    chunks = ["The Rhine is a European river. It is 1,230 kilometres long.",
              "The Rhine flows into the North Sea near Rotterdam."]
    page.locator("textarea#chunks").fill(json.dumps(chunks))  # as a paste
    with page.expect_response(lambda r: r.request.method == "POST") as response:
        answer.press("Control+Enter")
    ensure(response.value.status == 200, f"the check answered {response.value.status}")
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#answer-view .sentence[data-verdict]")).to_have_count(2)
    got = verdicts(page)
    ensure(got == ["supported", "supported"], f"verdicts {got}, expected two supported")
    expect(page.locator("#gate")).to_have_attribute("data-passed", "true")
    expect(page.locator("#gate")).to_contain_text("Gate passed")
    expect(page.locator("ol#chunk-list > li.chunk")).to_have_count(2)
    # Ctrl+Enter from the chunks box too, on a changed answer.
    answer.fill("The Rhine is 1,500 kilometres long [1].")
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.locator("textarea#chunks").press("Control+Enter")
    expect(page.locator("#answer-view .sentence[data-verdict]")).to_have_count(1)
    expect(page.locator('#answer-view .sentence[data-index="1"]')).to_have_attribute(
        "data-verdict", "number-mismatch")
    # A marker that points nowhere.
    answer.fill("The Rhine is 1,230 kilometres long [7].")
    with page.expect_response(lambda r: r.request.method == "POST"):
        answer.press("Control+Enter")
    expect(page.locator("#answer-view span.marker.unknown")).to_have_count(1)
    expect(page.locator("#answer-view a.marker")).to_have_count(0)


def misquote(page, base):
    """testdata/quotes: a quotation that changes one word of its source."""
    page.goto(base + "/")
    page.locator("textarea#answer").fill((REPO / "testdata/quotes/misquoted.md").read_text(encoding="utf-8"))
    page.locator("textarea#chunks").fill((REPO / "testdata/quotes/chunks.json").read_text(encoding="utf-8"))
    page.click("button#check")
    shown_result(page)
    expect(page.locator('#answer-view .sentence[data-index="1"]')).to_have_attribute("data-verdict", "misquote")
    block = page.locator("#answer-view div.misquote").first
    expect(block).to_be_visible()
    expect(block.locator(".closest").first).to_contain_text("seven years")
    expect(block.locator(".differing").first).to_be_visible()
    differing = " ".join(block.locator(".differing").all_inner_texts())
    ensure("five" in differing or "seven" in differing, f".differing marks {differing!r}, not five/seven")


def bad_chunks(page, base, watch):
    page.goto(base + "/")
    page.locator("textarea#answer").fill("The Eiffel Tower is 330 metres tall [1].")
    page.locator("textarea#chunks").fill('{"not": "chunks"}')
    watch.expected_console.append(r"Failed to load resource: the server responded with a status of 4\d\d")
    try:
        with page.expect_response(lambda r: r.request.method == "POST") as response:
            page.click("button#check")
        status = response.value.status
        ensure(400 <= status < 500, f"the API answered {status} to bad chunks")
        body = response.value.json()
        error = page.locator("#error")
        expect(error).to_be_visible()
        expect(error).to_have_attribute("role", "alert")
        ensure(error.get_attribute("hidden") is None, "#error still has the hidden attribute")
        items = error.locator("li")
        expect(items.first).to_be_visible()
        texts = items.all_inner_texts()
        ensure(any("chunks" in t for t in texts), f"no <li> in #error names chunks: {texts}")
        for problem in body.get("errors", []):
            ensure(any(problem["message"] in t for t in texts),
                   f"the API's message {problem['message']!r} is not in #error: {texts}")
        # A good check afterwards hides the error again.
        page.locator("textarea#chunks").fill('["The Eiffel Tower is 330 metres tall."]')
        page.click("button#check")
        expect(page.locator("#result")).to_be_visible()
        expect(error).to_be_hidden()
    finally:
        watch.expected_console.pop()


def screenshots(page, base, out):
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(base + "/")
    run_example(page)
    page.screenshot(path=str(out / "page-1280.png"), full_page=True)
    page.locator('#answer-view .sentence[data-index="1"] a.marker').first.click()
    expect(page.locator("#chunk-panel")).to_be_visible()
    page.screenshot(path=str(out / "page-1280-chunk-panel.png"), full_page=True)
    page.keyboard.press("Escape")
    page.set_viewport_size({"width": 360, "height": 780})
    page.goto(base + "/")
    page.screenshot(path=str(out / "page-360-empty.png"), full_page=True)
    empty = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    run_example(page)
    page.screenshot(path=str(out / "page-360.png"), full_page=True)
    result = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    page.set_viewport_size({"width": 1280, "height": 900})
    ensure(empty[0] <= empty[1], f"at 360 px the empty page scrolls sideways: scrollWidth {empty[0]} > {empty[1]}")
    ensure(result[0] <= result[1], f"at 360 px the result scrolls sideways: scrollWidth {result[0]} > {result[1]}")


# --- the reports -------------------------------------------------------------------------------


def column_of(page, key):
    """The index among the header cells of the th holding button[data-sort=key]."""
    return page.evaluate(
        """key => { const b = document.querySelector(`table#records thead button[data-sort="${key}"]`);
            if (!b) return -1; const th = b.closest('th'); return [...th.parentElement.children].indexOf(th); }""",
        key)


def column_numbers(page, column):
    return page.evaluate(
        """col => [...document.querySelectorAll('table#records tbody tr.record')]
            .filter(r => r.checkVisibility({visibilityProperty: true}))
            .map(r => r.children[col] ? r.children[col].textContent.trim() : '')
            .map(t => /^-?\\d+$/.test(t) ? parseInt(t, 10) : null).filter(n => n !== null)""",
        column)


def no_rendered_scripts(page, what):
    """A <script> (code or a JSON data block) is never shown: a stylesheet rule that matches
    one (a class it shares with a visible element) would print its text on the page."""
    shown = page.evaluate("""() => [...document.querySelectorAll('script')]
        .filter(s => s.checkVisibility()).map(s => s.outerHTML.slice(0, 120))""")
    ensure(not shown, f"{len(shown)} script elements are rendered as text on the {what}, e.g. {shown[:2]}")


def report_basics(page):
    no_rendered_scripts(page, "report")
    expect(page.locator("#summary")).not_to_be_empty()
    gate = page.locator("#gate")
    expect(gate).to_have_count(1)
    ensure(gate.get_attribute("data-passed") in ("true", "false"),
           f"#gate data-passed is {gate.get_attribute('data-passed')!r}")
    meta = page.locator('meta[http-equiv="Content-Security-Policy"]')
    expect(meta).to_have_count(1)
    content = meta.get_attribute("content") or ""
    ensure("default-src 'none'" in content, f"the report's CSP lacks default-src 'none': {content!r}")
    inline = page.evaluate("() => document.querySelectorAll('script:not([src]), style').length")
    if inline:
        ensure("sha256-" in content, f"the report has {inline} inline blocks but no sha256 in its CSP")


def batch_report(page, url, expected_rows):
    page.goto(url)
    report_basics(page)
    expect(page.locator("#gate")).to_have_attribute("data-passed", "false")
    rows = page.locator("table#records tbody tr.record")
    expect(rows).to_have_count(expected_rows)
    for row in rows.all():
        for attribute in ("data-index", "data-id", "data-status"):
            ensure(row.get_attribute(attribute) is not None, f"a row lacks {attribute}")
        ensure(row.get_attribute("data-status") in ("passed", "failing", "bad"),
               f"data-status {row.get_attribute('data-status')!r}")
    ensure(len(visible_rows(page)) == expected_rows, "not every row is visible before any filter")
    statuses = {r["status"] for r in visible_rows(page)}
    ensure({"passed", "failing", "bad"} <= statuses, f"the test transcripts should give every status, got {statuses}")


def batch_filter(page, url):
    page.goto(url)
    before = visible_rows(page)
    ids = [r["id"] for r in before]
    target = next((r for r in before if r["status"] == "failing" and r["id"] and ids.count(r["id"]) == 1), None)
    ensure(target, "no failing row with an id of its own to filter by")
    page.locator("input#filter").fill("")
    page.locator("input#filter").press_sequentially(target["id"])
    page.wait_for_function(f"() => ({VISIBLE_ROWS_JS})().length < {len(before)}", timeout=TIMEOUT_MS)
    after = visible_rows(page)
    ensure(0 < len(after) < len(before), f"filter {target['id']!r}: {len(after)} of {len(before)} rows visible")
    ensure(any(r["id"] == target["id"] for r in after), f"the row {target['id']!r} itself is hidden")
    shown = page.locator("#shown-count").inner_text()
    ensure(re.search(rf"\b{len(after)}\b", shown), f"#shown-count says {shown!r} with {len(after)} rows shown")
    page.locator("input#filter").fill("")
    page.wait_for_function(f"() => ({VISIBLE_ROWS_JS})().length === {len(before)}", timeout=TIMEOUT_MS)
    shown = page.locator("#shown-count").inner_text()
    ensure(re.search(rf"\b{len(before)}\b", shown), f"#shown-count says {shown!r} with all {len(before)} rows shown")


def batch_show(page, url):
    page.goto(url)
    failing = page.locator('table#records tbody tr.record[data-status="failing"]').count()
    ensure(failing > 0, "no failing row to show")
    for value in ("failing", "passing", "bad"):
        options = page.eval_on_selector_all("select#show option", "os => os.map(o => o.value)")
        ensure(value in options, f"select#show has no option {value!r}: {options}")
    page.select_option("select#show", "failing")
    page.wait_for_function(f"() => ({VISIBLE_ROWS_JS})().length === {failing}", timeout=TIMEOUT_MS)
    statuses = {r["status"] for r in visible_rows(page)}
    ensure(statuses == {"failing"}, f"show=failing shows rows {statuses}")
    page.select_option("select#show", "passing")
    page.wait_for_function(f"() => ({VISIBLE_ROWS_JS})().every(r => r.status === 'passed')", timeout=TIMEOUT_MS)
    ensure(visible_rows(page), "show=passing shows no row")
    page.select_option("select#show", "bad")
    page.wait_for_function(f"() => ({VISIBLE_ROWS_JS})().every(r => r.status === 'bad')", timeout=TIMEOUT_MS)
    ensure(visible_rows(page), "show=bad shows no row")
    page.select_option("select#show", "all")
    total = page.locator("table#records tbody tr.record").count()
    page.wait_for_function(f"() => ({VISIBLE_ROWS_JS})().length === {total}", timeout=TIMEOUT_MS)


def batch_sort(page, url):
    page.goto(url)
    column = column_of(page, "sentences")
    ensure(column >= 0, 'no button[data-sort="sentences"] in a th of table#records')
    for key in ("index", "id", "sentences", "supported", "uncited", "number-mismatch", "unsupported",
                "weak", "misquote", "failures"):
        expect(page.locator(f'table#records thead th button[data-sort="{key}"]')).to_have_count(1)
    original = column_numbers(page, column)
    ensure(len(set(original)) > 1, f"the sentences column has too few distinct numbers: {original}")
    button = page.locator('table#records thead button[data-sort="sentences"]')
    th = page.locator('table#records thead th:has(button[data-sort="sentences"])')
    seen = []
    for _ in range(2):
        button.click()
        page.wait_for_function("() => document.querySelector('table#records thead th:has(button[data-sort=\"sentences\"])')"
                               ".getAttribute('aria-sort') in {ascending: 1, descending: 1}", timeout=TIMEOUT_MS)
        direction = th.get_attribute("aria-sort")
        numbers = column_numbers(page, column)
        wanted = sorted(numbers, reverse=direction == "descending")
        ensure(numbers == wanted, f"aria-sort={direction} but the sentences column reads {numbers}")
        ensure(sorted(numbers) == sorted(original), "sorting lost or added rows")
        seen.append(direction)
    ensure(seen[0] != seen[1], f"a second click did not reverse the order: aria-sort {seen}")
    others = page.eval_on_selector_all(
        'table#records thead th:not(:has(button[data-sort="sentences"]))[aria-sort]',
        "ths => ths.map(t => t.getAttribute('aria-sort')).filter(a => a !== 'none')")
    ensure(not others, f"other headers still claim a sort: {others}")


def batch_expand(page, url):
    page.goto(url)
    row = page.locator('table#records tbody tr.record[data-status="failing"]').first
    button = row.locator("button.expand")
    expect(button).to_have_attribute("aria-expanded", "false")
    button.click()
    expect(button).to_have_attribute("aria-expanded", "true")
    detail = row.locator("xpath=following-sibling::tr[1]")
    expect(detail).to_have_class(re.compile(r"\bdetail\b"))
    expect(detail.locator(".answer-view .sentence[data-verdict]").first).to_be_visible()
    expect(detail.locator(".chunk-list")).to_have_count(1)
    button.click()
    expect(button).to_have_attribute("aria-expanded", "false")
    expect(page.locator("tr.detail:visible")).to_have_count(0)


def check_report_misquote(page, url):
    page.goto(url)
    report_basics(page)
    expect(page.locator('#answer-view .sentence[data-index="1"]')).to_have_attribute("data-verdict", "misquote")
    block = page.locator("#answer-view div.misquote").first
    expect(block).to_be_visible()
    expect(block.locator(".closest").first).to_contain_text("seven years")
    expect(block.locator(".differing").first).to_be_visible()


def check_report(page, url):
    page.goto(url)
    report_basics(page)
    ensure(page.locator("textarea#answer").count() == 0, "the check report has a form")
    got = verdicts(page)
    ensure(got == EXAMPLE_VERDICTS, f"verdicts {got}, expected {EXAMPLE_VERDICTS}")
    expect(page.locator("#gate")).to_have_attribute("data-passed", "false")
    expect(page.locator('#answer-view .sentence[data-index="2"] mark.missing-number')).to_have_text(re.compile("1888"))
    expect(page.locator("#limits")).to_contain_text("not entailment")
    expect(page.locator("ol#chunk-list > li.chunk")).to_have_count(5)


def check_report_citations(page, url):
    """A sentence citing two chunks lists each citation's finding and names the one that
    decided (testdata/markdown: sentence 4 cites 2 and 3; 3 adds nothing)."""
    page.goto(url)
    report_basics(page)
    sentence = page.locator('#answer-view .sentence[data-index="4"]')
    expect(sentence).to_have_attribute("data-deciding-chunk", "2")
    expect(sentence).to_have_attribute("title", re.compile(r"decided by chunk 2"))
    items = sentence.locator("ul.citations > li")
    expect(items).to_have_count(2)
    expect(items.nth(0)).to_have_attribute("data-deciding", "true")
    expect(items.nth(1)).to_contain_text("adds nothing")


def check_report_contradiction(page, url):
    """A contradicted sentence shows the chunk's passage with the contradicting words marked
    (testdata/contradictions: sentence 1 against chunk 2)."""
    page.goto(url)
    report_basics(page)
    sentence = page.locator('#answer-view .sentence[data-index="1"]')
    expect(sentence).to_have_attribute("data-verdict", "contradicted")
    box = sentence.locator("div.contradiction").first
    expect(box).to_be_visible()
    expect(box).to_have_attribute("data-chunk", "2")
    expect(box.locator("mark.contradicting")).to_have_text("did not significantly reduce")
    expect(page.locator('#answer-view .sentence[data-index="6"]')).to_have_attribute("data-verdict", "supported")


# Chunk ids that name what every JS object inherits (testdata/html/prototype-ids.*).
PROTOTYPE_CHUNKS = {"__proto__": "330 metres", "constructor": "1889", "toString": "Paris"}


def prototype_ids(page, url):
    """Chunk ids and words such as __proto__, constructor and toString are keys like any other:
    each marker opens its chunk, a suggestion opens hasOwnProperty, `constructor` is marked as a
    shared word."""
    page.goto(url)
    report_basics(page)
    expect(page.locator("ol#chunk-list > li.chunk")).to_have_count(4)
    panel = page.locator("#chunk-panel")
    for chunk, text in PROTOTYPE_CHUNKS.items():
        marker = page.locator(f'#answer-view a.marker[data-chunk="{chunk}"]').first
        marker.click()
        expect(panel).to_be_visible()
        expect(page.locator("#chunk-panel-title")).to_have_text(f"Chunk {chunk}")
        expect(page.locator("#chunk-panel-text")).to_contain_text(text)
        page.keyboard.press("Escape")
        expect(panel).to_be_hidden()
        expect(marker).to_be_focused()
    page.locator('#answer-view a.marker[data-chunk="constructor"]').first.click()
    expect(page.locator("#chunk-panel-text mark.shared", has_text=re.compile("^constructor$"))).to_have_count(1)
    page.keyboard.press("Escape")
    suggestion = page.locator('#answer-view button.suggestion[data-chunk="hasOwnProperty"]')
    suggestion.click()
    expect(panel).to_be_visible()
    expect(page.locator("#chunk-panel-title")).to_have_text("Chunk hasOwnProperty")
    expect(page.locator("#chunk-panel-text")).to_contain_text("lift carries visitors")
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()


def reports_narrow(page, urls, out):
    """At 360 px wide a report does not scroll sideways (its table may, inside its own box)."""
    page.set_viewport_size({"width": 360, "height": 780})
    try:
        wide = []
        for url in urls:
            page.goto(url)
            name = url.rsplit("/", 1)[-1].removesuffix(".html")
            page.screenshot(path=str(out / f"{name}-report-360.png"), full_page=True)
            width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
            if width[0] > width[1]:
                wide.append(f"{name}: scrollWidth {width[0]} > {width[1]}")
        ensure(not wide, "at 360 px " + "; ".join(wide))
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})


def compare_report(page, url):
    """`compare --format html` on testdata/compare: which side is better, the rates, the records
    that changed and the ones that matched nothing, and no script on the page."""
    page.goto(url)
    expect(page.locator("#better")).to_contain_text("B is worse")
    expect(page.locator("#summary")).to_contain_text("2 new, 1 fixed")
    expect(page.locator("table#rates tbody tr")).to_have_count(9)
    changes = page.locator("table#changes tbody")
    expect(changes).to_contain_text("louvre-1")
    expect(changes).to_contain_text("museum")
    expect(page.locator("table#unmatched tbody")).to_contain_text("Where is Lyon?")
    no_rendered_scripts(page, "compare report")


def large_report(page, url, records):
    started = time.monotonic()
    page.goto(url, wait_until="commit", timeout=120_000)
    page.wait_for_selector("table#records tbody tr.record", timeout=120_000)
    first_rows = time.monotonic() - started
    page.wait_for_load_state("load", timeout=120_000)
    loaded = time.monotonic() - started
    total = page.locator("table#records tbody tr.record").count()
    before = len(visible_rows(page))
    target = f"zq{records // 2 + 7:05d}"
    started = time.monotonic()
    page.locator("input#filter").fill(target)
    page.wait_for_function(f"() => ({VISIBLE_ROWS_JS})().length < {before}", polling=100, timeout=120_000)
    filtered = time.monotonic() - started
    after = visible_rows(page)
    print(f"  {records} records: first rows after {first_rows:.2f} s, load {loaded:.2f} s, "
          f"{total} rows in the DOM, filter to {len(after)} rows in {filtered:.2f} s", flush=True)
    ensure(any(r["id"] == target for r in after), f"the row {target} is not shown by its filter")
    ensure(first_rows < 30 and filtered < 30, "over the 30 s sanity bound")


# --- accessibility -----------------------------------------------------------------------------


def axe(page, axe_path, what):
    page.add_script_tag(path=axe_path)
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    bad = [v for v in result["violations"] if v.get("impact") in ("serious", "critical")]
    for violation in result["violations"]:
        print(f"  axe {what}: {violation['impact']} {violation['id']}: {violation['help']}")
        for node in violation["nodes"][:5]:
            summary = " ".join(node.get("failureSummary", "").split())
            print(f"    {', '.join(map(str, node['target']))}: {summary[:300]}")
    ensure(not bad, f"{len(bad)} serious or critical violations: {[v['id'] for v in bad]}")


def axe_page(page, base, axe_path):
    page.goto(base + "/")
    run_example(page)
    page.locator('#answer-view .sentence[data-index="1"] a.marker').first.click()
    expect(page.locator("#chunk-panel")).to_be_visible()
    axe(page, axe_path, "page")


def axe_page_error(page, base, axe_path):
    page.goto(base + "/")
    page.locator("textarea#chunks").fill('{"not": "chunks"}')
    page.click("button#check")
    expect(page.locator("#error")).to_be_visible()
    axe(page, axe_path, "page with an error")


def axe_report(page, url, axe_path, expand):
    page.goto(url)
    if expand:
        page.locator('table#records tbody tr.record[data-status="failing"] button.expand').first.click()
        expect(page.locator("tr.detail").first).to_be_visible()
    axe(page, axe_path, url.rsplit("/", 1)[-1])


# --- the run -----------------------------------------------------------------------------------


def generate_transcript(path, records):
    """`records` JSON Lines records from testdata/ci/batch.jsonl's whole records, ids zq00000…"""
    sources = []
    for line in (REPO / "testdata/ci/batch.jsonl").read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict) and record.get("response"):
            sources.append(record)
    rng = random.Random(20000)
    with open(path, "w", encoding="utf-8") as out:
        for i in range(records):
            record = dict(rng.choice(sources))
            record["id"] = f"zq{i:05d}"
            out.write(json.dumps(record) + "\n")


def ragcite(binary, *args, out):
    with open(out, "wb") as stdout:
        done = subprocess.run([binary, *args, "--isolated"], stdout=stdout, stderr=subprocess.PIPE,
                              cwd=REPO, timeout=600)
    if done.returncode not in (0, 1):
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        print(f"  ragcite {' '.join(args[:1])} ... exit {done.returncode}: {lines[0] if lines else ''}")
    return done.returncode


# The README's image: wide enough for the answer beside the chunk panel, narrow enough to read
# at a README's width; as tall as the report's first screen.
README_VIEWPORT = {"width": 1100, "height": 776}


def readme_image(binary, chromium, path, work):
    """The worked example's HTML report as a reader first sees it, with the chunk that sentence 2
    cites open beside it (its shared words marked, the missing 1888 listed), written to `path`."""
    report = work / "report.html"
    code = ragcite(binary, "check", "testdata/eiffel/answer.md", "testdata/eiffel/chunks.json",
                   "--format", "html", out=report)
    if code != 1:
        print(f"FAIL check --format html: exit {code}")
        return 1
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        ctx = browser.new_context(viewport=README_VIEWPORT, device_scale_factor=1, locale="en-US",
                                  timezone_id="UTC", service_workers="block", color_scheme="light")
        ctx.set_default_timeout(TIMEOUT_MS)
        # Nothing but the report itself is loaded.
        ctx.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file://")
                  else route.abort())
        page = ctx.new_page()
        page.goto(report.as_uri())
        page.locator('#answer-view .sentence[data-index="2"] a.marker').first.click()
        expect(page.locator("#chunk-panel")).to_be_visible()
        page.screenshot(path=str(path))
        browser.close()
    print(f"wrote {path} ({README_VIEWPORT['width']}x{README_VIEWPORT['height']})")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--axe", help="axe.min.js from the npm package axe-core")
    parser.add_argument("--screenshots", type=Path)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--readme-image", type=Path, help="only write the README's image to this path")
    options = parser.parse_args()
    binary = str(Path(options.binary).resolve())
    if options.readme_image:
        for path in (binary, options.chromium):
            if not os.path.exists(path):
                parser.error(f"{path} does not exist")
        options.readme_image.parent.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix="ragcite-readme-"))
        try:
            return readme_image(binary, options.chromium, options.readme_image.resolve(), work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    if options.axe is None or options.screenshots is None:
        parser.error("--axe and --screenshots are required (or --readme-image PATH)")
    for path in (binary, options.axe, options.chromium):
        if not os.path.exists(path):
            parser.error(f"{path} does not exist")
    options.screenshots.mkdir(parents=True, exist_ok=True)
    runner = Runner()
    work = Path(tempfile.mkdtemp(prefix="ragcite-browser-"))
    try:
        return run(options, binary, runner, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(options, binary, runner, work):

    # The reports, written before the browser starts.
    batch_html, check_html, large_html = work / "batch.html", work / "check.html", work / "large.html"
    code = ragcite(binary, "batch", *BATCH_INPUTS, "--format", "html", out=batch_html)
    print(f"  batch --format html over {len(BATCH_INPUTS)} transcripts: exit {code}, {batch_html.stat().st_size} bytes")
    batch_ok = code == 1 and batch_html.stat().st_size > 0
    expected_rows = 0
    if batch_ok:
        jsonl = work / "batch.jsonl"
        ragcite(binary, "batch", *BATCH_INPUTS, "--format", "jsonl", out=jsonl)
        lines = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines() if line.strip()]
        expected_rows = sum(1 for line in lines if line.get("type") == "record")
    code = ragcite(binary, "check", "testdata/eiffel/answer.md", "testdata/eiffel/chunks.json",
                   "--format", "html", out=check_html)
    check_ok = code == 1 and check_html.stat().st_size > 0
    quote_html = work / "quote.html"
    code = ragcite(binary, "check", "testdata/quotes/misquoted.md", "testdata/quotes/chunks.json",
                   "--format", "html", out=quote_html)
    quote_ok = code == 1 and quote_html.stat().st_size > 0
    print(f"  check --format html: exit {code}, {check_html.stat().st_size} bytes")
    cited_html = work / "citations.html"
    code = ragcite(binary, "check", "testdata/markdown/answer.md", "testdata/markdown/chunks.json",
                   "--format", "html", out=cited_html)
    cited_ok = code == 1 and cited_html.stat().st_size > 0
    contra_html = work / "contradictions.html"
    code = ragcite(binary, "check", "testdata/contradictions/answer.md", "testdata/contradictions/chunks.json",
                   "--format", "html", out=contra_html)
    contra_ok = code == 1 and contra_html.stat().st_size > 0
    proto_html = work / "prototype-ids.html"
    code = ragcite(binary, "check", "testdata/html/prototype-ids.md", "testdata/html/prototype-ids.json",
                   "--format", "html", out=proto_html)
    proto_ok = code == 1 and proto_html.stat().st_size > 0
    compare_html = work / "compare.html"
    code = ragcite(binary, "compare", "testdata/compare/a.jsonl", "testdata/compare/b.jsonl",
                   "--format", "html", out=compare_html)
    compare_ok = code == 0 and compare_html.stat().st_size > 0
    print(f"  compare --format html: exit {code}, {compare_html.stat().st_size} bytes")
    large_ok = False
    if options.records:
        transcript = work / "large.jsonl"
        generate_transcript(transcript, options.records)
        started = time.monotonic()
        code = ragcite(binary, "batch", str(transcript), "--format", "html", out=large_html)
        print(f"  batch --format html over {options.records} records: exit {code}, "
              f"{large_html.stat().st_size} bytes in {time.monotonic() - started:.1f} s")
        large_ok = code in (0, 1) and large_html.stat().st_size > 0

    server = Server(binary)
    match = re.fullmatch(r"listening on (http://127\.0\.0\.1:\d+)", server.first_line)
    if not match:
        server.stop()
        print(f"FAIL serve: the first stderr line is {server.first_line!r}")
        return 1
    base = match.group(1)
    try:
        with sync_playwright() as playwright:
            # launch() gives every run a fresh temporary profile (user-data dir), deleted on close.
            browser = playwright.chromium.launch(executable_path=options.chromium, args=CHROMIUM_ARGS)
            print(f"  chromium {browser.version}, server {base}", flush=True)

            def context(allowed, bypass_csp=False):
                ctx = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=bypass_csp,
                                          locale="en-US", timezone_id="UTC", service_workers="block")
                ctx.set_default_timeout(TIMEOUT_MS)
                return ctx, Watch(ctx, allowed)

            ctx, watch = context([base + "/"])
            page = ctx.new_page()
            loads = runner.check("page: loads with its CSP, the form, no result, no error", page_loads, page, base)
            form = (loads or page.locator("button#example").count() == 1, "not run: the page has no form")
            example = runner.check("page: the worked example's verdicts, gate, 1888, limits, legend, chunks",
                                   worked_example, page, needs=form)
            shown = (example or page.locator("#answer-view .sentence").count() > 0,
                     "not run: the worked example shows no sentences")
            runner.check("page: a marker's chunk panel by mouse, Esc closes and gives focus back",
                         chunk_panel_mouse, page, needs=shown)
            runner.check("page: the chunk panel by keyboard only (Tab, Enter, Esc)", chunk_panel_keyboard, page,
                         needs=shown)
            runner.check("page: own answer and chunks (JSON strings), Ctrl+Enter", own_input, page, base, needs=form)
            runner.check("page: a misquote shows the closest passage and what differs", misquote, page, base,
                         needs=form)
            runner.check("page: bad chunks show the API's error in #error", bad_chunks, page, base, watch, needs=form)
            runner.check("page: screenshots at 1280 and 360 px, no sideways scroll at 360 px",
                         screenshots, page, base, options.screenshots, needs=shown)
            runner.check("page: nothing loaded from outside, no CSP violation, no console error",
                         watch.verify, page, "page")
            ctx.close()

            ctx, watch = context(["file://"])
            page = ctx.new_page()
            if batch_ok:
                url = batch_html.as_uri()
                runner.check(f"batch report: summary, gate, {expected_rows} rows with their attributes",
                             batch_report, page, url, expected_rows)
                runner.check("batch report: input#filter reduces the rows, #shown-count follows", batch_filter, page, url)
                runner.check("batch report: select#show failing/passing/bad/all", batch_show, page, url)
                runner.check("batch report: sort by sentences, both directions, aria-sort", batch_sort, page, url)
                runner.check("batch report: a row expands to its sentences and chunks", batch_expand, page, url)
                page.set_viewport_size({"width": 1280, "height": 900})
                page.goto(url)
                page.screenshot(path=str(options.screenshots / "batch-report-1280.png"), full_page=True)
            else:
                runner.check("batch report: written with exit code 1", ensure, False, "batch --format html failed")
            if check_ok:
                runner.check("check report: the worked example's four verdicts, gate, 1888", check_report,
                             page, check_html.as_uri())
            else:
                runner.check("check report: written with exit code 1", ensure, False, "check --format html failed")
            runner.check("check report: a misquote shows the closest passage and what differs",
                         check_report_misquote, page, quote_html.as_uri(),
                         needs=(quote_ok, "not run: check --format html on testdata/quotes failed"))
            runner.check("check report: each citation's finding, the deciding chunk named",
                         check_report_citations, page, cited_html.as_uri(),
                         needs=(cited_ok, "not run: check --format html on testdata/markdown failed"))
            runner.check("check report: a contradiction shows the chunk's contradicting words",
                         check_report_contradiction, page, contra_html.as_uri(),
                         needs=(contra_ok, "not run: check --format html on testdata/contradictions failed"))
            runner.check("check report: chunk ids __proto__, constructor, toString open their chunk",
                         prototype_ids, page, proto_html.as_uri(),
                         needs=(proto_ok, "not run: check --format html on testdata/html failed"))
            runner.check("compare report: which side is better, rates, changed and unmatched records",
                         compare_report, page, compare_html.as_uri(),
                         needs=(compare_ok, "not run: compare --format html on testdata/compare failed"))
            narrow = [html.as_uri() for html, ok in
                      ((batch_html, batch_ok), (check_html, check_ok), (compare_html, compare_ok)) if ok]
            runner.check("reports: screenshots at 360 px, no sideways scroll", reports_narrow, page, narrow,
                         options.screenshots, needs=(narrow, "not run: no report"))
            if options.records:
                if large_ok:
                    runner.check(f"large report: {options.records} records open and filter", large_report,
                                 page, large_html.as_uri(), options.records)
                else:
                    runner.check("large report: written", ensure, False, "batch --format html failed")
            runner.check("reports: nothing loaded from outside, no CSP violation, no console error",
                         watch.verify, page, "reports", needs=(batch_ok or check_ok or quote_ok or large_ok, "not run: no report"))
            ctx.close()

            # axe-core needs bypass_csp: both CSPs refuse the injected script, as they should.
            ctx, watch = context([base + "/", "file://"], bypass_csp=True)
            page = ctx.new_page()
            watch.expected_console.append(r"Failed to load resource: the server responded with a status of 4\d\d")
            runner.check("axe: the page with a result and the chunk panel", axe_page, page, base, options.axe,
                         needs=shown)
            runner.check("axe: the page with an error", axe_page_error, page, base, options.axe, needs=form)
            if batch_ok:
                runner.check("axe: the batch report with a row expanded", axe_report, page,
                             batch_html.as_uri(), options.axe, True)
            if check_ok:
                runner.check("axe: the check report", axe_report, page, check_html.as_uri(), options.axe, False)
            if compare_ok:
                runner.check("axe: the compare report", axe_report, page, compare_html.as_uri(), options.axe,
                             False)
            ctx.close()
            browser.close()
    finally:
        code = server.stop()
        if code != 0:
            print(f"FAIL serve: exit code {code} on SIGTERM")
            runner.failed.append("serve exit")
    print(f"browser: {runner.passed} passed, {len(runner.failed)} failed")
    return 1 if runner.failed else 0


if __name__ == "__main__":
    sys.exit(main())
