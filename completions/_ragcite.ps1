
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'ragcite' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'ragcite'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'ragcite' {
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check an answer''s citations against the retrieved chunks')
            [CompletionResult]::new('batch', 'batch', [CompletionResultType]::ParameterValue, 'Check every record of an eval transcript file (RAGAS, DeepEval, promptfoo, traces, JSON Lines, CSV)')
            [CompletionResult]::new('compare', 'compare', [CompletionResultType]::ParameterValue, 'Compare two transcripts of the same questions (two prompts, two models): rates, findings fixed and new, which is better')
            [CompletionResult]::new('eval', 'eval', [CompletionResultType]::ParameterValue, 'Measure agreement with human labels: ROC-AUC, macro-F1, the best threshold')
            [CompletionResult]::new('train', 'train', [CompletionResultType]::ParameterValue, 'Fit your own support model on labelled transcripts (gradient-boosted trees)')
            [CompletionResult]::new('quote', 'quote', [CompletionResultType]::ParameterValue, 'Verify that a quotation is word for word in a document, or show the closest passage')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain a verdict (what it means, how it is decided, what to do), or each sentence of an answer')
            [CompletionResult]::new('formats', 'formats', [CompletionResultType]::ParameterValue, 'List the answer formats (readers and profiles), or say which one a file matches')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve the HTTP API (the RAG Citation Debugger contract) and MCP at /mcp')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the MCP tools over stdio (rag_citation_debugger, verify_citation)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ragcite;check' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--answer-format', '--answer-format', [CompletionResultType]::ParameterName, 'Read the answer as this format instead of recognising it [default: auto]')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'Largest input read whole, in bytes or with a unit (64KiB, 256MiB, 1GiB); a larger one, or an endless one, is an input error')
            [CompletionResult]::new('--question', '--question', [CompletionResultType]::ParameterName, 'The question the answer replies to: a figure it states is context, not a claim the answer must cite')
            [CompletionResult]::new('--check-timeout', '--check-timeout', [CompletionResultType]::ParameterName, 'Seconds the check may run; then it stops and the run is an input error (exit 2) [default: no limit]')
            [CompletionResult]::new('--answer-path', '--answer-path', [CompletionResultType]::ParameterName, 'Path to the answer''s text in a JSON answer file (`output.text`, `steps[-1].content[?type=text].text`; see docs/formats.md for the path language)')
            [CompletionResult]::new('--sources-path', '--sources-path', [CompletionResultType]::ParameterName, 'Path to the list of sources in the same file (`results[]`)')
            [CompletionResult]::new('--source-id-path', '--source-id-path', [CompletionResultType]::ParameterName, 'Path to a source''s id within each source (a template such as `{file} p. {page}` also works) [default: its URL, else its position]')
            [CompletionResult]::new('--source-text-path', '--source-text-path', [CompletionResultType]::ParameterName, 'Path to a source''s text within each source [default: `text`]')
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Support threshold: the `support` score a sentence''s best cited chunk must reach (the support model''s estimate that the chunk backs the sentence; see --model)')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'Language of the stemmer, stop words, number format and abbreviations; `auto` detects it from the answer (and its chunks when the answer is short), English when the detector is unsure. A language given is used as is, with a warning when the answer looks written in another')
            [CompletionResult]::new('--citation-scope', '--citation-scope', [CompletionResultType]::ParameterName, 'What a citation marker covers: its sentence, or also (`paragraph`) the sentences without a marker before it in its paragraph, when it ends the paragraph')
            [CompletionResult]::new('--marker', '--marker', [CompletionResultType]::ParameterName, 'Your own marker form besides the built-in ones: a regular expression whose one capture group is the label (`\{\{cite:(\w+)\}\}` reads `{{cite:doc2}}` as a marker citing `doc2`)')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'What scores support: `shipped` (the model built in), `formula` (the hand-weighted score of ragcite 0.1), or a model file written by `ragcite train`')
            [CompletionResult]::new('--claim-threshold', '--claim-threshold', [CompletionResultType]::ParameterName, 'Claim threshold: the claim score an English sentence without a citation must reach to be an uncited claim; higher flags fewer (the claim model''s estimate that a reader wants it sourced; see --claim-model)')
            [CompletionResult]::new('--claim-model', '--claim-model', [CompletionResultType]::ParameterName, 'What tells claims from sentences that need no source: `shipped` (the claim model built in), `rules` (the phrase rules alone, as ragcite 0.9), or a model file written by `ragcite train --claims`')
            [CompletionResult]::new('--max-uncited', '--max-uncited', [CompletionResultType]::ParameterName, 'Most uncited claims allowed')
            [CompletionResult]::new('--max-number-mismatch', '--max-number-mismatch', [CompletionResultType]::ParameterName, 'Most number mismatches allowed')
            [CompletionResult]::new('--max-unsupported', '--max-unsupported', [CompletionResultType]::ParameterName, 'Most unsupported citations allowed')
            [CompletionResult]::new('--max-unknown-markers', '--max-unknown-markers', [CompletionResultType]::ParameterName, 'Most unknown markers (distinct labels that resolve to no chunk) allowed')
            [CompletionResult]::new('--max-misquotes', '--max-misquotes', [CompletionResultType]::ParameterName, 'Most misquotes allowed (quotations not found in the cited chunk)')
            [CompletionResult]::new('--max-contradicted', '--max-contradicted', [CompletionResultType]::ParameterName, 'Most contradicted sentences allowed (a cited chunk says the opposite)')
            [CompletionResult]::new('--max-weak', '--max-weak', [CompletionResultType]::ParameterName, 'Most weakly supported sentences allowed [default: unlimited]')
            [CompletionResult]::new('--max-abstentions', '--max-abstentions', [CompletionResultType]::ParameterName, 'Most abstentions allowed (sentences saying the sources do not cover something) [default: unlimited]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the table (NO_COLOR and CLICOLOR_FORCE are honoured in `auto`)')
            [CompletionResult]::new('--stdin-filename', '--stdin-filename', [CompletionResultType]::ParameterName, 'The name to give standard input in reports [default: <stdin>]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read options from this file instead of the .ragcite.toml, ragcite.toml or pyproject.toml found above the working directory')
            [CompletionResult]::new('--isolated', '--isolated', [CompletionResultType]::ParameterName, 'Ignore every configuration file')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ragcite;batch' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--field', '--field', [CompletionResultType]::ParameterName, 'Where a field is in each record, as KEY=PATH (KEY: answer, contexts or id; PATH like outputs.text or docs[].page_content); repeatable')
            [CompletionResult]::new('--records', '--records', [CompletionResultType]::ParameterName, 'Where the array of records is in a file that is one JSON object, as a path of keys (data, results.results, traces), for when it cannot be told')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'Largest record (a JSON line, a CSV row, an element of the array of records), in bytes or with a unit (64KiB, 64MiB, 1GiB); a longer one stops the run')
            [CompletionResult]::new('--max-open-traces', '--max-open-traces', [CompletionResultType]::ParameterName, 'Most traces of a trace export open at once (their spans waiting for the rest); opening one more closes the oldest, as at the end of the file')
            [CompletionResult]::new('--max-trace-memory', '--max-trace-memory', [CompletionResultType]::ParameterName, 'Most memory the open traces of a trace export hold, in bytes or with a unit (256MiB, 1GiB); past it the oldest is closed, as at the end of the file')
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Support threshold: the `support` score a sentence''s best cited chunk must reach (the support model''s estimate that the chunk backs the sentence; see --model)')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'Language of the stemmer, stop words, number format and abbreviations; `auto` detects it from the answer (and its chunks when the answer is short), English when the detector is unsure. A language given is used as is, with a warning when the answer looks written in another')
            [CompletionResult]::new('--citation-scope', '--citation-scope', [CompletionResultType]::ParameterName, 'What a citation marker covers: its sentence, or also (`paragraph`) the sentences without a marker before it in its paragraph, when it ends the paragraph')
            [CompletionResult]::new('--marker', '--marker', [CompletionResultType]::ParameterName, 'Your own marker form besides the built-in ones: a regular expression whose one capture group is the label (`\{\{cite:(\w+)\}\}` reads `{{cite:doc2}}` as a marker citing `doc2`)')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'What scores support: `shipped` (the model built in), `formula` (the hand-weighted score of ragcite 0.1), or a model file written by `ragcite train`')
            [CompletionResult]::new('--claim-threshold', '--claim-threshold', [CompletionResultType]::ParameterName, 'Claim threshold: the claim score an English sentence without a citation must reach to be an uncited claim; higher flags fewer (the claim model''s estimate that a reader wants it sourced; see --claim-model)')
            [CompletionResult]::new('--claim-model', '--claim-model', [CompletionResultType]::ParameterName, 'What tells claims from sentences that need no source: `shipped` (the claim model built in), `rules` (the phrase rules alone, as ragcite 0.9), or a model file written by `ragcite train --claims`')
            [CompletionResult]::new('--max-uncited', '--max-uncited', [CompletionResultType]::ParameterName, 'Most uncited claims allowed')
            [CompletionResult]::new('--max-number-mismatch', '--max-number-mismatch', [CompletionResultType]::ParameterName, 'Most number mismatches allowed')
            [CompletionResult]::new('--max-unsupported', '--max-unsupported', [CompletionResultType]::ParameterName, 'Most unsupported citations allowed')
            [CompletionResult]::new('--max-unknown-markers', '--max-unknown-markers', [CompletionResultType]::ParameterName, 'Most unknown markers (distinct labels that resolve to no chunk) allowed')
            [CompletionResult]::new('--max-misquotes', '--max-misquotes', [CompletionResultType]::ParameterName, 'Most misquotes allowed (quotations not found in the cited chunk)')
            [CompletionResult]::new('--max-contradicted', '--max-contradicted', [CompletionResultType]::ParameterName, 'Most contradicted sentences allowed (a cited chunk says the opposite)')
            [CompletionResult]::new('--max-weak', '--max-weak', [CompletionResultType]::ParameterName, 'Most weakly supported sentences allowed [default: unlimited]')
            [CompletionResult]::new('--max-abstentions', '--max-abstentions', [CompletionResultType]::ParameterName, 'Most abstentions allowed (sentences saying the sources do not cover something) [default: unlimited]')
            [CompletionResult]::new('--max-uncited-rate', '--max-uncited-rate', [CompletionResultType]::ParameterName, 'Highest share of claim sentences, over all records, that may be uncited claims')
            [CompletionResult]::new('--max-number-mismatch-rate', '--max-number-mismatch-rate', [CompletionResultType]::ParameterName, 'Highest share of claim sentences that may be number mismatches')
            [CompletionResult]::new('--max-unsupported-rate', '--max-unsupported-rate', [CompletionResultType]::ParameterName, 'Highest share of claim sentences that may be unsupported citations')
            [CompletionResult]::new('--max-contradicted-rate', '--max-contradicted-rate', [CompletionResultType]::ParameterName, 'Highest share of claim sentences that may be contradicted')
            [CompletionResult]::new('--max-abstention-rate', '--max-abstention-rate', [CompletionResultType]::ParameterName, 'Highest share of checked records that may abstain at least once [default: unlimited]')
            [CompletionResult]::new('--max-failing-records', '--max-failing-records', [CompletionResultType]::ParameterName, 'Most records over a per-record limit [default: 0, or unlimited when a rate limit is set]')
            [CompletionResult]::new('--max-bad-records', '--max-bad-records', [CompletionResultType]::ParameterName, 'Most records that cannot be read (bad JSON, no answer or contexts field)')
            [CompletionResult]::new('--baseline', '--baseline', [CompletionResultType]::ParameterName, 'What an earlier `batch --format json` wrote: only findings it does not hold count against the limits, and the report says which were fixed')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the table (NO_COLOR and CLICOLOR_FORCE are honoured in `auto`)')
            [CompletionResult]::new('--stdin-filename', '--stdin-filename', [CompletionResultType]::ParameterName, 'The name to give standard input in reports [default: <stdin>]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read options from this file instead of the .ragcite.toml, ragcite.toml or pyproject.toml found above the working directory')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'List every record in the table, not only the worst failing ones')
            [CompletionResult]::new('--isolated', '--isolated', [CompletionResultType]::ParameterName, 'Ignore every configuration file')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ragcite;compare' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--field', '--field', [CompletionResultType]::ParameterName, 'Where a field is in each record, as KEY=PATH (KEY: answer, contexts, id or question); repeatable')
            [CompletionResult]::new('--records', '--records', [CompletionResultType]::ParameterName, 'Where the array of records is in a file that is one JSON object, as a path of keys (data, results.results, traces)')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'Largest record (a JSON line, a CSV row, an element of the array of records), in bytes or with a unit (64KiB, 64MiB, 1GiB); a longer one stops the run')
            [CompletionResult]::new('--max-open-traces', '--max-open-traces', [CompletionResultType]::ParameterName, 'Most traces of a trace export open at once (their spans waiting for the rest); opening one more closes the oldest, as at the end of the file')
            [CompletionResult]::new('--max-trace-memory', '--max-trace-memory', [CompletionResultType]::ParameterName, 'Most memory the open traces of a trace export hold, in bytes or with a unit (256MiB, 1GiB); past it the oldest is closed, as at the end of the file')
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Support threshold: the `support` score a sentence''s best cited chunk must reach (the support model''s estimate that the chunk backs the sentence; see --model)')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'Language of the stemmer, stop words, number format and abbreviations; `auto` detects it from the answer (and its chunks when the answer is short), English when the detector is unsure. A language given is used as is, with a warning when the answer looks written in another')
            [CompletionResult]::new('--citation-scope', '--citation-scope', [CompletionResultType]::ParameterName, 'What a citation marker covers: its sentence, or also (`paragraph`) the sentences without a marker before it in its paragraph, when it ends the paragraph')
            [CompletionResult]::new('--marker', '--marker', [CompletionResultType]::ParameterName, 'Your own marker form besides the built-in ones: a regular expression whose one capture group is the label (`\{\{cite:(\w+)\}\}` reads `{{cite:doc2}}` as a marker citing `doc2`)')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'What scores support: `shipped` (the model built in), `formula` (the hand-weighted score of ragcite 0.1), or a model file written by `ragcite train`')
            [CompletionResult]::new('--claim-threshold', '--claim-threshold', [CompletionResultType]::ParameterName, 'Claim threshold: the claim score an English sentence without a citation must reach to be an uncited claim; higher flags fewer (the claim model''s estimate that a reader wants it sourced; see --claim-model)')
            [CompletionResult]::new('--claim-model', '--claim-model', [CompletionResultType]::ParameterName, 'What tells claims from sentences that need no source: `shipped` (the claim model built in), `rules` (the phrase rules alone, as ragcite 0.9), or a model file written by `ragcite train --claims`')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the table (NO_COLOR and CLICOLOR_FORCE are honoured in `auto`)')
            [CompletionResult]::new('--stdin-filename', '--stdin-filename', [CompletionResultType]::ParameterName, 'The name to give standard input in reports [default: <stdin>]')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read options from this file instead of the .ragcite.toml, ragcite.toml or pyproject.toml found above the working directory')
            [CompletionResult]::new('--fail-if-worse', '--fail-if-worse', [CompletionResultType]::ParameterName, 'Exit 1 when B is worse than A (more problem sentences per claim sentence), when records were left out (unreadable or unmatched), or when B has more lines not checked than A')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'List every record that changed in the table, not only the first 20')
            [CompletionResult]::new('--isolated', '--isolated', [CompletionResultType]::ParameterName, 'Ignore every configuration file')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ragcite;eval' {
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Support threshold: the `support` score a sentence''s best cited chunk must reach (the support model''s estimate that the chunk backs the sentence; see --model)')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'Language of the stemmer, stop words, number format and abbreviations; `auto` detects it from the answer (and its chunks when the answer is short), English when the detector is unsure. A language given is used as is, with a warning when the answer looks written in another')
            [CompletionResult]::new('--citation-scope', '--citation-scope', [CompletionResultType]::ParameterName, 'What a citation marker covers: its sentence, or also (`paragraph`) the sentences without a marker before it in its paragraph, when it ends the paragraph')
            [CompletionResult]::new('--marker', '--marker', [CompletionResultType]::ParameterName, 'Your own marker form besides the built-in ones: a regular expression whose one capture group is the label (`\{\{cite:(\w+)\}\}` reads `{{cite:doc2}}` as a marker citing `doc2`)')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'What scores support: `shipped` (the model built in), `formula` (the hand-weighted score of ragcite 0.1), or a model file written by `ragcite train`')
            [CompletionResult]::new('--claim-threshold', '--claim-threshold', [CompletionResultType]::ParameterName, 'Claim threshold: the claim score an English sentence without a citation must reach to be an uncited claim; higher flags fewer (the claim model''s estimate that a reader wants it sourced; see --claim-model)')
            [CompletionResult]::new('--claim-model', '--claim-model', [CompletionResultType]::ParameterName, 'What tells claims from sentences that need no source: `shipped` (the claim model built in), `rules` (the phrase rules alone, as ragcite 0.9), or a model file written by `ragcite train --claims`')
            [CompletionResult]::new('--group-by', '--group-by', [CompletionResultType]::ParameterName, 'The record field whose value groups the results')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--features', '--features', [CompletionResultType]::ParameterName, 'Also write each labelled unit''s support features, label and source ids to this JSON Lines file, for fitting a model (scripts/data/fit-support.py)')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'Largest record (a labelled JSON line), in bytes or with a unit (64KiB, 64MiB, 1GiB); a longer one stops the run')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'Largest standard input kept in memory when two models read it, in bytes or with a unit')
            [CompletionResult]::new('--lenient', '--lenient', [CompletionResultType]::ParameterName, 'Use `label_lenient` where a sentence has one')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ragcite;train' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write the model file here (written whole or not at all)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write the model file here (written whole or not at all)')
            [CompletionResult]::new('--trees', '--trees', [CompletionResultType]::ParameterName, 'Boosting rounds: one tree each')
            [CompletionResult]::new('--depth', '--depth', [CompletionResultType]::ParameterName, 'Depth of each tree')
            [CompletionResult]::new('--learning-rate', '--learning-rate', [CompletionResultType]::ParameterName, 'Shrinkage of each tree''s values')
            [CompletionResult]::new('--min-leaf', '--min-leaf', [CompletionResultType]::ParameterName, 'Fewest labelled units a leaf may hold')
            [CompletionResult]::new('--max-record-size', '--max-record-size', [CompletionResultType]::ParameterName, 'Largest record (a labelled JSON line), in bytes or with a unit (64KiB, 64MiB, 1GiB); a longer one stops the run')
            [CompletionResult]::new('--lenient', '--lenient', [CompletionResultType]::ParameterName, 'Use `label_lenient` where a sentence has one')
            [CompletionResult]::new('--claims', '--claims', [CompletionResultType]::ParameterName, 'Fit a claim model instead (for --claim-model): on whole answers whose sentences carry `claim`, `worthy` or `kind` labels')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ragcite;quote' {
            [CompletionResult]::new('--quote-file', '--quote-file', [CompletionResultType]::ParameterName, 'Read the quotation from a file')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'Largest document or quote file read, in bytes or with a unit (64KiB, 256MiB, 1GiB); a larger one, or an endless one, is an input error')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ragcite;explain' {
            [CompletionResult]::new('--answer-format', '--answer-format', [CompletionResultType]::ParameterName, 'Read the answer as this format instead of recognising it [default: auto]')
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'Largest input read whole, in bytes or with a unit (64KiB, 256MiB, 1GiB); a larger one, or an endless one, is an input error')
            [CompletionResult]::new('--threshold', '--threshold', [CompletionResultType]::ParameterName, 'Support threshold: the `support` score a sentence''s best cited chunk must reach (the support model''s estimate that the chunk backs the sentence; see --model)')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'Language of the stemmer, stop words, number format and abbreviations; `auto` detects it from the answer (and its chunks when the answer is short), English when the detector is unsure. A language given is used as is, with a warning when the answer looks written in another')
            [CompletionResult]::new('--citation-scope', '--citation-scope', [CompletionResultType]::ParameterName, 'What a citation marker covers: its sentence, or also (`paragraph`) the sentences without a marker before it in its paragraph, when it ends the paragraph')
            [CompletionResult]::new('--marker', '--marker', [CompletionResultType]::ParameterName, 'Your own marker form besides the built-in ones: a regular expression whose one capture group is the label (`\{\{cite:(\w+)\}\}` reads `{{cite:doc2}}` as a marker citing `doc2`)')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'What scores support: `shipped` (the model built in), `formula` (the hand-weighted score of ragcite 0.1), or a model file written by `ragcite train`')
            [CompletionResult]::new('--claim-threshold', '--claim-threshold', [CompletionResultType]::ParameterName, 'Claim threshold: the claim score an English sentence without a citation must reach to be an uncited claim; higher flags fewer (the claim model''s estimate that a reader wants it sourced; see --claim-model)')
            [CompletionResult]::new('--claim-model', '--claim-model', [CompletionResultType]::ParameterName, 'What tells claims from sentences that need no source: `shipped` (the claim model built in), `rules` (the phrase rules alone, as ragcite 0.9), or a model file written by `ragcite train --claims`')
            [CompletionResult]::new('--features', '--features', [CompletionResultType]::ParameterName, 'List the support model''s features and what each measures')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ragcite;formats' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('detect', 'detect', [CompletionResultType]::ParameterValue, 'Say which formats a file matches, with their scores, and which one reads it')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ragcite;formats;detect' {
            [CompletionResult]::new('--max-input-size', '--max-input-size', [CompletionResultType]::ParameterName, 'Largest input read whole, in bytes or with a unit (64KiB, 256MiB, 1GiB)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ragcite;formats;help' {
            [CompletionResult]::new('detect', 'detect', [CompletionResultType]::ParameterValue, 'Say which formats a file matches, with their scores, and which one reads it')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ragcite;formats;help;detect' {
            break
        }
        'ragcite;formats;help;help' {
            break
        }
        'ragcite;serve' {
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Address to bind; anything but a loopback address exposes the server to the network')
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'Port to bind; 0 picks a free one (the first line on stderr says which)')
            [CompletionResult]::new('--documents', '--documents', [CompletionResultType]::ParameterName, 'A folder whose files verify_citation can name by their path in it (document_id)')
            [CompletionResult]::new('--rate-limit', '--rate-limit', [CompletionResultType]::ParameterName, 'Requests per second each client may make (a token bucket of that size); over it, 429')
            [CompletionResult]::new('--max-concurrent', '--max-concurrent', [CompletionResultType]::ParameterName, 'Checks run at once [default: the number of cores]; when eight times as many wait, 503')
            [CompletionResult]::new('--max-concurrent-per-client', '--max-concurrent-per-client', [CompletionResultType]::ParameterName, 'Checks one client address may run at once [default: one less than --max-concurrent, at least 1], so that a slot stays for the others; a freed slot goes to the client running the fewest')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds a connection may stay silent before its request''s headers, then take to send them, and again its body; then 408 or a closed connection')
            [CompletionResult]::new('--max-connections', '--max-connections', [CompletionResultType]::ParameterName, 'Connections open at once; beyond, the oldest one waiting for a request is closed, or the new one when none waits')
            [CompletionResult]::new('--max-connections-per-client', '--max-connections-per-client', [CompletionResultType]::ParameterName, 'Connections open at once from one client address (raise it behind a reverse proxy); beyond, as for --max-connections')
            [CompletionResult]::new('--check-timeout', '--check-timeout', [CompletionResultType]::ParameterName, 'Seconds one check may run (from its start, not its wait); then it stops and the request gets 503 check-timeout')
            [CompletionResult]::new('--cors', '--cors', [CompletionResultType]::ParameterName, 'Allow this origin (`https://example.com`, or `*` for any) to call the API from a browser; no CORS without it')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'What scores support in every request: `shipped` (the model built in), `formula` (the hand-weighted score of ragcite 0.1), or a model file written by `ragcite train`')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Read options from the [serve] table of this file instead of the configuration found above the working directory')
            [CompletionResult]::new('--cors-mcp', '--cors-mcp', [CompletionResultType]::ParameterName, 'Let the --cors origin call /mcp too (its tools read the documents folder); without it, /mcp sends no CORS header')
            [CompletionResult]::new('--isolated', '--isolated', [CompletionResultType]::ParameterName, 'Ignore every configuration file')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ragcite;mcp' {
            [CompletionResult]::new('--documents', '--documents', [CompletionResultType]::ParameterName, 'A folder whose files verify_citation can name by their path in it (document_id)')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'What scores support in every call: `shipped` (the model built in), `formula` (the hand-weighted score of ragcite 0.1), or a model file written by `ragcite train`')
            [CompletionResult]::new('--check-timeout', '--check-timeout', [CompletionResultType]::ParameterName, 'Seconds one rag_citation_debugger check may run (from its start); then it stops and the call gets a tool error')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ragcite;help' {
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check an answer''s citations against the retrieved chunks')
            [CompletionResult]::new('batch', 'batch', [CompletionResultType]::ParameterValue, 'Check every record of an eval transcript file (RAGAS, DeepEval, promptfoo, traces, JSON Lines, CSV)')
            [CompletionResult]::new('compare', 'compare', [CompletionResultType]::ParameterValue, 'Compare two transcripts of the same questions (two prompts, two models): rates, findings fixed and new, which is better')
            [CompletionResult]::new('eval', 'eval', [CompletionResultType]::ParameterValue, 'Measure agreement with human labels: ROC-AUC, macro-F1, the best threshold')
            [CompletionResult]::new('train', 'train', [CompletionResultType]::ParameterValue, 'Fit your own support model on labelled transcripts (gradient-boosted trees)')
            [CompletionResult]::new('quote', 'quote', [CompletionResultType]::ParameterValue, 'Verify that a quotation is word for word in a document, or show the closest passage')
            [CompletionResult]::new('explain', 'explain', [CompletionResultType]::ParameterValue, 'Explain a verdict (what it means, how it is decided, what to do), or each sentence of an answer')
            [CompletionResult]::new('formats', 'formats', [CompletionResultType]::ParameterValue, 'List the answer formats (readers and profiles), or say which one a file matches')
            [CompletionResult]::new('serve', 'serve', [CompletionResultType]::ParameterValue, 'Serve the HTTP API (the RAG Citation Debugger contract) and MCP at /mcp')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the MCP tools over stdio (rag_citation_debugger, verify_citation)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ragcite;help;check' {
            break
        }
        'ragcite;help;batch' {
            break
        }
        'ragcite;help;compare' {
            break
        }
        'ragcite;help;eval' {
            break
        }
        'ragcite;help;train' {
            break
        }
        'ragcite;help;quote' {
            break
        }
        'ragcite;help;explain' {
            break
        }
        'ragcite;help;formats' {
            [CompletionResult]::new('detect', 'detect', [CompletionResultType]::ParameterValue, 'Say which formats a file matches, with their scores, and which one reads it')
            break
        }
        'ragcite;help;formats;detect' {
            break
        }
        'ragcite;help;serve' {
            break
        }
        'ragcite;help;mcp' {
            break
        }
        'ragcite;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
