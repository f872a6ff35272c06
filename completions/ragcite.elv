
use builtin;
use str;

set edit:completion:arg-completer[ragcite] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'ragcite'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'ragcite'= {
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand check 'Check an answer''s citations against the retrieved chunks'
            cand batch 'Check every record of an eval transcript file (RAGAS, DeepEval, promptfoo, traces, JSON Lines, CSV)'
            cand compare 'Compare two transcripts of the same questions (two prompts, two models): rates, findings fixed and new, which is better'
            cand eval 'Measure agreement with human labels: ROC-AUC, macro-F1, the best threshold'
            cand train 'Fit your own support model on labelled transcripts (gradient-boosted trees)'
            cand quote 'Verify that a quotation is word for word in a document, or show the closest passage'
            cand explain 'Explain a verdict (what it means, how it is decided, what to do), or each sentence of an answer'
            cand formats 'List the answer formats (readers and profiles), or say which one a file matches'
            cand serve 'Serve the HTTP API (the RAG Citation Debugger contract) and MCP at /mcp'
            cand mcp 'Serve the MCP tools over stdio (rag_citation_debugger, verify_citation)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ragcite;check'= {
            cand --format 'Output format'
            cand --answer-format 'Read the answer as this format instead of recognising it [default: auto]'
            cand --max-input-size 'Largest input read whole, in bytes or with a unit (64KiB, 256MiB, 1GiB); a larger one, or an endless one, is an input error'
            cand --question 'The question the answer replies to: a figure it states is context, not a claim the answer must cite'
            cand --check-timeout 'Seconds the check may run; then it stops and the run is an input error (exit 2) [default: no limit]'
            cand --answer-path 'Path to the answer''s text in a JSON answer file (`output.text`, `steps[-1].content[?type=text].text`; see docs/formats.md for the path language)'
            cand --sources-path 'Path to the list of sources in the same file (`results[]`)'
            cand --source-id-path 'Path to a source''s id within each source (a template such as `{file} p. {page}` also works) [default: its URL, else its position]'
            cand --source-text-path 'Path to a source''s text within each source [default: `text`]'
            cand --threshold 'Support threshold: the `support` score a sentence''s best cited chunk must reach (the support model''s estimate that the chunk backs the sentence; see --model)'
            cand --lang 'Language of the stemmer, stop words, number format and abbreviations; `auto` detects it from the answer (and its chunks when the answer is short), English when the detector is unsure. A language given is used as is, with a warning when the answer looks written in another'
            cand --citation-scope 'What a citation marker covers: its sentence, or also (`paragraph`) the sentences without a marker before it in its paragraph, when it ends the paragraph'
            cand --marker 'Your own marker form besides the built-in ones: a regular expression whose one capture group is the label (`\{\{cite:(\w+)\}\}` reads `{{cite:doc2}}` as a marker citing `doc2`)'
            cand --model 'What scores support: `shipped` (the model built in), `formula` (the hand-weighted score of ragcite 0.1), or a model file written by `ragcite train`'
            cand --claim-threshold 'Claim threshold: the claim score an English sentence without a citation must reach to be an uncited claim; higher flags fewer (the claim model''s estimate that a reader wants it sourced; see --claim-model)'
            cand --claim-model 'What tells claims from sentences that need no source: `shipped` (the claim model built in), `rules` (the phrase rules alone, as ragcite 0.9), or a model file written by `ragcite train --claims`'
            cand --max-uncited 'Most uncited claims allowed'
            cand --max-number-mismatch 'Most number mismatches allowed'
            cand --max-unsupported 'Most unsupported citations allowed'
            cand --max-unknown-markers 'Most unknown markers (distinct labels that resolve to no chunk) allowed'
            cand --max-misquotes 'Most misquotes allowed (quotations not found in the cited chunk)'
            cand --max-contradicted 'Most contradicted sentences allowed (a cited chunk says the opposite)'
            cand --max-weak 'Most weakly supported sentences allowed [default: unlimited]'
            cand --max-abstentions 'Most abstentions allowed (sentences saying the sources do not cover something) [default: unlimited]'
            cand --color 'When to colour the table (NO_COLOR and CLICOLOR_FORCE are honoured in `auto`)'
            cand --stdin-filename 'The name to give standard input in reports [default: <stdin>]'
            cand --config 'Read options from this file instead of the .ragcite.toml, ragcite.toml or pyproject.toml found above the working directory'
            cand --isolated 'Ignore every configuration file'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ragcite;batch'= {
            cand --format 'Output format'
            cand --field 'Where a field is in each record, as KEY=PATH (KEY: answer, contexts or id; PATH like outputs.text or docs[].page_content); repeatable'
            cand --records 'Where the array of records is in a file that is one JSON object, as a path of keys (data, results.results, traces), for when it cannot be told'
            cand --max-record-size 'Largest record (a JSON line, a CSV row, an element of the array of records), in bytes or with a unit (64KiB, 64MiB, 1GiB); a longer one stops the run'
            cand --max-open-traces 'Most traces of a trace export open at once (their spans waiting for the rest); opening one more closes the oldest, as at the end of the file'
            cand --max-trace-memory 'Most memory the open traces of a trace export hold, in bytes or with a unit (256MiB, 1GiB); past it the oldest is closed, as at the end of the file'
            cand --threshold 'Support threshold: the `support` score a sentence''s best cited chunk must reach (the support model''s estimate that the chunk backs the sentence; see --model)'
            cand --lang 'Language of the stemmer, stop words, number format and abbreviations; `auto` detects it from the answer (and its chunks when the answer is short), English when the detector is unsure. A language given is used as is, with a warning when the answer looks written in another'
            cand --citation-scope 'What a citation marker covers: its sentence, or also (`paragraph`) the sentences without a marker before it in its paragraph, when it ends the paragraph'
            cand --marker 'Your own marker form besides the built-in ones: a regular expression whose one capture group is the label (`\{\{cite:(\w+)\}\}` reads `{{cite:doc2}}` as a marker citing `doc2`)'
            cand --model 'What scores support: `shipped` (the model built in), `formula` (the hand-weighted score of ragcite 0.1), or a model file written by `ragcite train`'
            cand --claim-threshold 'Claim threshold: the claim score an English sentence without a citation must reach to be an uncited claim; higher flags fewer (the claim model''s estimate that a reader wants it sourced; see --claim-model)'
            cand --claim-model 'What tells claims from sentences that need no source: `shipped` (the claim model built in), `rules` (the phrase rules alone, as ragcite 0.9), or a model file written by `ragcite train --claims`'
            cand --max-uncited 'Most uncited claims allowed'
            cand --max-number-mismatch 'Most number mismatches allowed'
            cand --max-unsupported 'Most unsupported citations allowed'
            cand --max-unknown-markers 'Most unknown markers (distinct labels that resolve to no chunk) allowed'
            cand --max-misquotes 'Most misquotes allowed (quotations not found in the cited chunk)'
            cand --max-contradicted 'Most contradicted sentences allowed (a cited chunk says the opposite)'
            cand --max-weak 'Most weakly supported sentences allowed [default: unlimited]'
            cand --max-abstentions 'Most abstentions allowed (sentences saying the sources do not cover something) [default: unlimited]'
            cand --max-uncited-rate 'Highest share of claim sentences, over all records, that may be uncited claims'
            cand --max-number-mismatch-rate 'Highest share of claim sentences that may be number mismatches'
            cand --max-unsupported-rate 'Highest share of claim sentences that may be unsupported citations'
            cand --max-contradicted-rate 'Highest share of claim sentences that may be contradicted'
            cand --max-abstention-rate 'Highest share of checked records that may abstain at least once [default: unlimited]'
            cand --max-failing-records 'Most records over a per-record limit [default: 0, or unlimited when a rate limit is set]'
            cand --max-bad-records 'Most records that cannot be read (bad JSON, no answer or contexts field)'
            cand --baseline 'What an earlier `batch --format json` wrote: only findings it does not hold count against the limits, and the report says which were fixed'
            cand --color 'When to colour the table (NO_COLOR and CLICOLOR_FORCE are honoured in `auto`)'
            cand --stdin-filename 'The name to give standard input in reports [default: <stdin>]'
            cand --config 'Read options from this file instead of the .ragcite.toml, ragcite.toml or pyproject.toml found above the working directory'
            cand --all 'List every record in the table, not only the worst failing ones'
            cand --isolated 'Ignore every configuration file'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ragcite;compare'= {
            cand --format 'Output format'
            cand --field 'Where a field is in each record, as KEY=PATH (KEY: answer, contexts, id or question); repeatable'
            cand --records 'Where the array of records is in a file that is one JSON object, as a path of keys (data, results.results, traces)'
            cand --max-record-size 'Largest record (a JSON line, a CSV row, an element of the array of records), in bytes or with a unit (64KiB, 64MiB, 1GiB); a longer one stops the run'
            cand --max-open-traces 'Most traces of a trace export open at once (their spans waiting for the rest); opening one more closes the oldest, as at the end of the file'
            cand --max-trace-memory 'Most memory the open traces of a trace export hold, in bytes or with a unit (256MiB, 1GiB); past it the oldest is closed, as at the end of the file'
            cand --threshold 'Support threshold: the `support` score a sentence''s best cited chunk must reach (the support model''s estimate that the chunk backs the sentence; see --model)'
            cand --lang 'Language of the stemmer, stop words, number format and abbreviations; `auto` detects it from the answer (and its chunks when the answer is short), English when the detector is unsure. A language given is used as is, with a warning when the answer looks written in another'
            cand --citation-scope 'What a citation marker covers: its sentence, or also (`paragraph`) the sentences without a marker before it in its paragraph, when it ends the paragraph'
            cand --marker 'Your own marker form besides the built-in ones: a regular expression whose one capture group is the label (`\{\{cite:(\w+)\}\}` reads `{{cite:doc2}}` as a marker citing `doc2`)'
            cand --model 'What scores support: `shipped` (the model built in), `formula` (the hand-weighted score of ragcite 0.1), or a model file written by `ragcite train`'
            cand --claim-threshold 'Claim threshold: the claim score an English sentence without a citation must reach to be an uncited claim; higher flags fewer (the claim model''s estimate that a reader wants it sourced; see --claim-model)'
            cand --claim-model 'What tells claims from sentences that need no source: `shipped` (the claim model built in), `rules` (the phrase rules alone, as ragcite 0.9), or a model file written by `ragcite train --claims`'
            cand --color 'When to colour the table (NO_COLOR and CLICOLOR_FORCE are honoured in `auto`)'
            cand --stdin-filename 'The name to give standard input in reports [default: <stdin>]'
            cand --config 'Read options from this file instead of the .ragcite.toml, ragcite.toml or pyproject.toml found above the working directory'
            cand --fail-if-worse 'Exit 1 when B is worse than A (more problem sentences per claim sentence), when records were left out (unreadable or unmatched), or when B has more lines not checked than A'
            cand --all 'List every record that changed in the table, not only the first 20'
            cand --isolated 'Ignore every configuration file'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ragcite;eval'= {
            cand --threshold 'Support threshold: the `support` score a sentence''s best cited chunk must reach (the support model''s estimate that the chunk backs the sentence; see --model)'
            cand --lang 'Language of the stemmer, stop words, number format and abbreviations; `auto` detects it from the answer (and its chunks when the answer is short), English when the detector is unsure. A language given is used as is, with a warning when the answer looks written in another'
            cand --citation-scope 'What a citation marker covers: its sentence, or also (`paragraph`) the sentences without a marker before it in its paragraph, when it ends the paragraph'
            cand --marker 'Your own marker form besides the built-in ones: a regular expression whose one capture group is the label (`\{\{cite:(\w+)\}\}` reads `{{cite:doc2}}` as a marker citing `doc2`)'
            cand --model 'What scores support: `shipped` (the model built in), `formula` (the hand-weighted score of ragcite 0.1), or a model file written by `ragcite train`'
            cand --claim-threshold 'Claim threshold: the claim score an English sentence without a citation must reach to be an uncited claim; higher flags fewer (the claim model''s estimate that a reader wants it sourced; see --claim-model)'
            cand --claim-model 'What tells claims from sentences that need no source: `shipped` (the claim model built in), `rules` (the phrase rules alone, as ragcite 0.9), or a model file written by `ragcite train --claims`'
            cand --group-by 'The record field whose value groups the results'
            cand --format 'Output format'
            cand --features 'Also write each labelled unit''s support features, label and source ids to this JSON Lines file, for fitting a model (scripts/data/fit-support.py)'
            cand --max-record-size 'Largest record (a labelled JSON line), in bytes or with a unit (64KiB, 64MiB, 1GiB); a longer one stops the run'
            cand --max-input-size 'Largest standard input kept in memory when two models read it, in bytes or with a unit'
            cand --lenient 'Use `label_lenient` where a sentence has one'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ragcite;train'= {
            cand -o 'Write the model file here (written whole or not at all)'
            cand --output 'Write the model file here (written whole or not at all)'
            cand --trees 'Boosting rounds: one tree each'
            cand --depth 'Depth of each tree'
            cand --learning-rate 'Shrinkage of each tree''s values'
            cand --min-leaf 'Fewest labelled units a leaf may hold'
            cand --max-record-size 'Largest record (a labelled JSON line), in bytes or with a unit (64KiB, 64MiB, 1GiB); a longer one stops the run'
            cand --lenient 'Use `label_lenient` where a sentence has one'
            cand --claims 'Fit a claim model instead (for --claim-model): on whole answers whose sentences carry `claim`, `worthy` or `kind` labels'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ragcite;quote'= {
            cand --quote-file 'Read the quotation from a file'
            cand --format 'Output format'
            cand --max-input-size 'Largest document or quote file read, in bytes or with a unit (64KiB, 256MiB, 1GiB); a larger one, or an endless one, is an input error'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ragcite;explain'= {
            cand --answer-format 'Read the answer as this format instead of recognising it [default: auto]'
            cand --max-input-size 'Largest input read whole, in bytes or with a unit (64KiB, 256MiB, 1GiB); a larger one, or an endless one, is an input error'
            cand --threshold 'Support threshold: the `support` score a sentence''s best cited chunk must reach (the support model''s estimate that the chunk backs the sentence; see --model)'
            cand --lang 'Language of the stemmer, stop words, number format and abbreviations; `auto` detects it from the answer (and its chunks when the answer is short), English when the detector is unsure. A language given is used as is, with a warning when the answer looks written in another'
            cand --citation-scope 'What a citation marker covers: its sentence, or also (`paragraph`) the sentences without a marker before it in its paragraph, when it ends the paragraph'
            cand --marker 'Your own marker form besides the built-in ones: a regular expression whose one capture group is the label (`\{\{cite:(\w+)\}\}` reads `{{cite:doc2}}` as a marker citing `doc2`)'
            cand --model 'What scores support: `shipped` (the model built in), `formula` (the hand-weighted score of ragcite 0.1), or a model file written by `ragcite train`'
            cand --claim-threshold 'Claim threshold: the claim score an English sentence without a citation must reach to be an uncited claim; higher flags fewer (the claim model''s estimate that a reader wants it sourced; see --claim-model)'
            cand --claim-model 'What tells claims from sentences that need no source: `shipped` (the claim model built in), `rules` (the phrase rules alone, as ragcite 0.9), or a model file written by `ragcite train --claims`'
            cand --features 'List the support model''s features and what each measures'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ragcite;formats'= {
            cand --format 'Output format'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand detect 'Say which formats a file matches, with their scores, and which one reads it'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ragcite;formats;detect'= {
            cand --max-input-size 'Largest input read whole, in bytes or with a unit (64KiB, 256MiB, 1GiB)'
            cand --format 'Output format'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ragcite;formats;help'= {
            cand detect 'Say which formats a file matches, with their scores, and which one reads it'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ragcite;formats;help;detect'= {
        }
        &'ragcite;formats;help;help'= {
        }
        &'ragcite;serve'= {
            cand --host 'Address to bind; anything but a loopback address exposes the server to the network'
            cand --port 'Port to bind; 0 picks a free one (the first line on stderr says which)'
            cand --documents 'A folder whose files verify_citation can name by their path in it (document_id)'
            cand --rate-limit 'Requests per second each client may make (a token bucket of that size); over it, 429'
            cand --max-concurrent 'Checks run at once [default: the number of cores]; when eight times as many wait, 503'
            cand --max-concurrent-per-client 'Checks one client address may run at once [default: one less than --max-concurrent, at least 1], so that a slot stays for the others; a freed slot goes to the client running the fewest'
            cand --timeout 'Seconds a connection may stay silent before its request''s headers, then take to send them, and again its body; then 408 or a closed connection'
            cand --max-connections 'Connections open at once; beyond, the oldest one waiting for a request is closed, or the new one when none waits'
            cand --max-connections-per-client 'Connections open at once from one client address (raise it behind a reverse proxy); beyond, as for --max-connections'
            cand --check-timeout 'Seconds one check may run (from its start, not its wait); then it stops and the request gets 503 check-timeout'
            cand --cors 'Allow this origin (`https://example.com`, or `*` for any) to call the API from a browser; no CORS without it'
            cand --model 'What scores support in every request: `shipped` (the model built in), `formula` (the hand-weighted score of ragcite 0.1), or a model file written by `ragcite train`'
            cand --config 'Read options from the [serve] table of this file instead of the configuration found above the working directory'
            cand --cors-mcp 'Let the --cors origin call /mcp too (its tools read the documents folder); without it, /mcp sends no CORS header'
            cand --isolated 'Ignore every configuration file'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ragcite;mcp'= {
            cand --documents 'A folder whose files verify_citation can name by their path in it (document_id)'
            cand --model 'What scores support in every call: `shipped` (the model built in), `formula` (the hand-weighted score of ragcite 0.1), or a model file written by `ragcite train`'
            cand --check-timeout 'Seconds one rag_citation_debugger check may run (from its start); then it stops and the call gets a tool error'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ragcite;help'= {
            cand check 'Check an answer''s citations against the retrieved chunks'
            cand batch 'Check every record of an eval transcript file (RAGAS, DeepEval, promptfoo, traces, JSON Lines, CSV)'
            cand compare 'Compare two transcripts of the same questions (two prompts, two models): rates, findings fixed and new, which is better'
            cand eval 'Measure agreement with human labels: ROC-AUC, macro-F1, the best threshold'
            cand train 'Fit your own support model on labelled transcripts (gradient-boosted trees)'
            cand quote 'Verify that a quotation is word for word in a document, or show the closest passage'
            cand explain 'Explain a verdict (what it means, how it is decided, what to do), or each sentence of an answer'
            cand formats 'List the answer formats (readers and profiles), or say which one a file matches'
            cand serve 'Serve the HTTP API (the RAG Citation Debugger contract) and MCP at /mcp'
            cand mcp 'Serve the MCP tools over stdio (rag_citation_debugger, verify_citation)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ragcite;help;check'= {
        }
        &'ragcite;help;batch'= {
        }
        &'ragcite;help;compare'= {
        }
        &'ragcite;help;eval'= {
        }
        &'ragcite;help;train'= {
        }
        &'ragcite;help;quote'= {
        }
        &'ragcite;help;explain'= {
        }
        &'ragcite;help;formats'= {
            cand detect 'Say which formats a file matches, with their scores, and which one reads it'
        }
        &'ragcite;help;formats;detect'= {
        }
        &'ragcite;help;serve'= {
        }
        &'ragcite;help;mcp'= {
        }
        &'ragcite;help;help'= {
        }
    ]
    $completions[$command]
}
