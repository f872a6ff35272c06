# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ragcite_global_optspecs
    string join \n h/help V/version
end

function __fish_ragcite_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_ragcite_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_ragcite_using_subcommand
    set -l cmd (__fish_ragcite_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c ragcite -n "__fish_ragcite_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ragcite -n "__fish_ragcite_needs_command" -s V -l version -d 'Print version'
complete -c ragcite -n "__fish_ragcite_needs_command" -f -a "check" -d 'Check an answer\'s citations against the retrieved chunks'
complete -c ragcite -n "__fish_ragcite_needs_command" -f -a "batch" -d 'Check every record of an eval transcript file (RAGAS, DeepEval, promptfoo, traces, JSON Lines, CSV)'
complete -c ragcite -n "__fish_ragcite_needs_command" -f -a "compare" -d 'Compare two transcripts of the same questions (two prompts, two models): rates, findings fixed and new, which is better'
complete -c ragcite -n "__fish_ragcite_needs_command" -f -a "eval" -d 'Measure agreement with human labels: ROC-AUC, macro-F1, the best threshold'
complete -c ragcite -n "__fish_ragcite_needs_command" -f -a "train" -d 'Fit your own support model on labelled transcripts (gradient-boosted trees)'
complete -c ragcite -n "__fish_ragcite_needs_command" -f -a "quote" -d 'Verify that a quotation is word for word in a document, or show the closest passage'
complete -c ragcite -n "__fish_ragcite_needs_command" -f -a "explain" -d 'Explain a verdict (what it means, how it is decided, what to do), or each sentence of an answer'
complete -c ragcite -n "__fish_ragcite_needs_command" -f -a "formats" -d 'List the answer formats (readers and profiles), or say which one a file matches'
complete -c ragcite -n "__fish_ragcite_needs_command" -f -a "serve" -d 'Serve the HTTP API (the RAG Citation Debugger contract) and MCP at /mcp'
complete -c ragcite -n "__fish_ragcite_needs_command" -f -a "mcp" -d 'Serve the MCP tools over stdio (rag_citation_debugger, verify_citation)'
complete -c ragcite -n "__fish_ragcite_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l format -d 'Output format' -r -f -a "table\t'Coloured tables and a one-line summary, for people'
full\t'Each finding as linters print theirs: its sentence with what decided underlined, the passage of the cited chunk, a note per cited chunk'
concise\t'One line per finding: `path:line:column: rule message`'
json\t'One JSON document (schemaVersion, inputs, result, warnings, gate), for machines'
sarif\t'SARIF 2.1.0 for GitHub code scanning, one result per problem sentence'
github\t'GitHub Actions workflow annotations'
gitlab\t'GitLab Code Quality report'
junit\t'JUnit XML, one test case per claim sentence'
api\t'The envelope `ragcite serve` returns for the same inputs (RagCitationDebuggerResult)'
html\t'One self-contained HTML page: each sentence highlighted by verdict, the chunks beside it'"
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l answer-format -d 'Read the answer as this format instead of recognising it [default: auto]' -r -f -a "auto\t'Recognise the format from the content'
text\t'Plain text or Markdown'
ollama\t'Ollama /api/chat or /api/generate, JSON or NDJSON stream'
openai\t'OpenAI Chat Completions, JSON or SSE stream'
openai-responses\t'OpenAI Responses API, with file search results'
openai-assistants\t'OpenAI Assistants messages list, with file citations'
anthropic\t'Anthropic Messages, with citations'
cohere\t'Cohere Chat v2, with citations'
gemini\t'Gemini or Vertex AI generateContent, with grounding metadata'
citation-list\t'{"answer": ..., "citations": [{"source", "quote"}]}'
azure\t'Azure OpenAI On Your Data, [docN] = N-th citation'
perplexity\t'Perplexity Sonar, with search_results'
mistral\t'Mistral chat with reference chunks'
bedrock\t'AWS Bedrock Knowledge Bases RetrieveAndGenerate'
bedrock-converse\t'AWS Bedrock Converse, with document citations'
bedrock-agents\t'AWS Bedrock Agents InvokeAgent events, with traces'
langchain\t'LangChain retrieval chain output {answer, context}'
llamaindex\t'LlamaIndex Response {response, source_nodes}'
haystack\t'Haystack pipeline output with AnswerBuilder answers'
open-webui\t'Open WebUI chat export, [N] = N-th source file'
vectara\t'Vectara Query API v2 (summary with [N] over search_results)'
vertex-ai-search-answer\t'Vertex AI Search / Discovery Engine answer (servingConfigs.answer)'
amazon-q-business\t'Amazon Q Business ChatSync (systemMessage with sourceAttributions)'
azure-agentic-retrieval\t'Azure AI Search agentic retrieval, answer synthesis ([ref_id:N] over references)'
azure-agentic-retrieval-sources\t'Azure AI Search agentic retrieval, extractive (references only, no answer)'
pinecone-assistant\t'Pinecone Assistant chat (citations by position, with highlights)'
pinecone-assistant-context\t'Pinecone Assistant context snippets'
exa-answer\t'Exa /answer (sources for the whole answer, no inline citations)'
exa-search\t'Exa /search or /contents results with text'
xai-live-search\t'xAI chat completion with Live Search citations (URLs only)'
ragflow\t'RAGFlow chat completion ([ID:n] or ##n$$ over reference.chunks, 0-based)'
ragflow-openai\t'RAGFlow OpenAI-compatible chat completion with reference'
dify\t'Dify chat-messages (retriever_resources, no inline citations)'
r2r\t'R2R retrieval/rag ([short id] markers over chunk_search_results)'
graphrag\t'GraphRAG local or global search saved as {response, context_data}'
lightrag\t'LightRAG /query with references ([n] names a file)'
privategpt\t'PrivateGPT chat completion with sources (no inline citations)'
anythingllm\t'AnythingLLM workspace chat (textResponse with sources)'
dspy\t'DSPy Prediction (answer, context, reasoning)'
vercel-ai-sdk\t'Vercel AI SDK text result, JSON.stringify(result) (steps, source parts)'
vercel-ai-sdk-fields\t'Vercel AI SDK text result with its fields named (text, sources)'
storm-url-to-info\t'STORM url_to_info.json ([N] = url_to_unified_index, sources only)'
alce\t'ALCE result record (output with [n] over docs, gold answer left out)'
ragchecker\t'RAGChecker input record (response over retrieved_context)'
dspy-evaluate\t'DSPy Evaluate result row (pred_answer, context)'
mlflow-evaluate\t'MLflow evaluate result table row (inputs, outputs, context)'"
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l max-input-size -d 'Largest input read whole, in bytes or with a unit (64KiB, 256MiB, 1GiB); a larger one, or an endless one, is an input error' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l question -d 'The question the answer replies to: a figure it states is context, not a claim the answer must cite' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l check-timeout -d 'Seconds the check may run; then it stops and the run is an input error (exit 2) [default: no limit]' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l answer-path -d 'Path to the answer\'s text in a JSON answer file (`output.text`, `steps[-1].content[?type=text].text`; see docs/formats.md for the path language)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l sources-path -d 'Path to the list of sources in the same file (`results[]`)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l source-id-path -d 'Path to a source\'s id within each source (a template such as `{file} p. {page}` also works) [default: its URL, else its position]' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l source-text-path -d 'Path to a source\'s text within each source [default: `text`]' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l threshold -d 'Support threshold: the `support` score a sentence\'s best cited chunk must reach (the support model\'s estimate that the chunk backs the sentence; see --model)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l lang -d 'Language of the stemmer, stop words, number format and abbreviations; `auto` detects it from the answer (and its chunks when the answer is short), English when the detector is unsure. A language given is used as is, with a warning when the answer looks written in another' -r -f -a "auto\t'Detect the answer\'s language (English when unsure)'
ar\t'Arabic'
da\t'Danish'
de\t'German'
el\t'Greek'
en\t'English'
es\t'Spanish'
fi\t'Finnish'
fr\t'French'
hu\t'Hungarian'
it\t'Italian'
ja\t'Japanese'
ko\t'Korean'
nl\t'Dutch'
no\t'Norwegian'
pt\t'Portuguese'
ro\t'Romanian'
ru\t'Russian'
sv\t'Swedish'
ta\t'Tamil'
tr\t'Turkish'
zh\t'Chinese'"
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l citation-scope -d 'What a citation marker covers: its sentence, or also (`paragraph`) the sentences without a marker before it in its paragraph, when it ends the paragraph' -r -f -a "sentence\t'A marker covers the sentence it stands in'
paragraph\t'A paragraph\'s last sentence\'s markers also cover its earlier sentences without one'"
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l marker -d 'Your own marker form besides the built-in ones: a regular expression whose one capture group is the label (`\\{\\{cite:(\\w+)\\}\\}` reads `{{cite:doc2}}` as a marker citing `doc2`)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l model -d 'What scores support: `shipped` (the model built in), `formula` (the hand-weighted score of ragcite 0.1), or a model file written by `ragcite train`' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l claim-threshold -d 'Claim threshold: the claim score an English sentence without a citation must reach to be an uncited claim; higher flags fewer (the claim model\'s estimate that a reader wants it sourced; see --claim-model)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l claim-model -d 'What tells claims from sentences that need no source: `shipped` (the claim model built in), `rules` (the phrase rules alone, as ragcite 0.9), or a model file written by `ragcite train --claims`' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l max-uncited -d 'Most uncited claims allowed' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l max-number-mismatch -d 'Most number mismatches allowed' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l max-unsupported -d 'Most unsupported citations allowed' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l max-unknown-markers -d 'Most unknown markers (distinct labels that resolve to no chunk) allowed' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l max-misquotes -d 'Most misquotes allowed (quotations not found in the cited chunk)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l max-contradicted -d 'Most contradicted sentences allowed (a cited chunk says the opposite)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l max-weak -d 'Most weakly supported sentences allowed [default: unlimited]' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l max-abstentions -d 'Most abstentions allowed (sentences saying the sources do not cover something) [default: unlimited]' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l color -d 'When to colour the table (NO_COLOR and CLICOLOR_FORCE are honoured in `auto`)' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set; CLICOLOR_FORCE or FORCE_COLOR force it'
always\t''
never\t''"
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l stdin-filename -d 'The name to give standard input in reports [default: <stdin>]' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l config -d 'Read options from this file instead of the .ragcite.toml, ragcite.toml or pyproject.toml found above the working directory' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -l isolated -d 'Ignore every configuration file'
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ragcite -n "__fish_ragcite_using_subcommand check" -s V -l version -d 'Print version'
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l format -d 'Output format' -r -f -a "table\t'The failing records, worst first, and a one-line summary, for people'
json\t'One JSON document: inputs, one summary per record, aggregate, gate'
jsonl\t'One JSON object per record, written as records finish, then a summary line'
sarif\t'SARIF 2.1.0 for GitHub code scanning, one result per problem sentence'
github\t'GitHub Actions workflow annotations'
gitlab\t'GitLab Code Quality report'
junit\t'JUnit XML, one test case per record'
html\t'One self-contained HTML page: a sortable, filterable table of records, each expandable'"
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l field -d 'Where a field is in each record, as KEY=PATH (KEY: answer, contexts or id; PATH like outputs.text or docs[].page_content); repeatable' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l records -d 'Where the array of records is in a file that is one JSON object, as a path of keys (data, results.results, traces), for when it cannot be told' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l max-record-size -d 'Largest record (a JSON line, a CSV row, an element of the array of records), in bytes or with a unit (64KiB, 64MiB, 1GiB); a longer one stops the run' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l max-open-traces -d 'Most traces of a trace export open at once (their spans waiting for the rest); opening one more closes the oldest, as at the end of the file' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l max-trace-memory -d 'Most memory the open traces of a trace export hold, in bytes or with a unit (256MiB, 1GiB); past it the oldest is closed, as at the end of the file' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l threshold -d 'Support threshold: the `support` score a sentence\'s best cited chunk must reach (the support model\'s estimate that the chunk backs the sentence; see --model)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l lang -d 'Language of the stemmer, stop words, number format and abbreviations; `auto` detects it from the answer (and its chunks when the answer is short), English when the detector is unsure. A language given is used as is, with a warning when the answer looks written in another' -r -f -a "auto\t'Detect the answer\'s language (English when unsure)'
ar\t'Arabic'
da\t'Danish'
de\t'German'
el\t'Greek'
en\t'English'
es\t'Spanish'
fi\t'Finnish'
fr\t'French'
hu\t'Hungarian'
it\t'Italian'
ja\t'Japanese'
ko\t'Korean'
nl\t'Dutch'
no\t'Norwegian'
pt\t'Portuguese'
ro\t'Romanian'
ru\t'Russian'
sv\t'Swedish'
ta\t'Tamil'
tr\t'Turkish'
zh\t'Chinese'"
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l citation-scope -d 'What a citation marker covers: its sentence, or also (`paragraph`) the sentences without a marker before it in its paragraph, when it ends the paragraph' -r -f -a "sentence\t'A marker covers the sentence it stands in'
paragraph\t'A paragraph\'s last sentence\'s markers also cover its earlier sentences without one'"
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l marker -d 'Your own marker form besides the built-in ones: a regular expression whose one capture group is the label (`\\{\\{cite:(\\w+)\\}\\}` reads `{{cite:doc2}}` as a marker citing `doc2`)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l model -d 'What scores support: `shipped` (the model built in), `formula` (the hand-weighted score of ragcite 0.1), or a model file written by `ragcite train`' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l claim-threshold -d 'Claim threshold: the claim score an English sentence without a citation must reach to be an uncited claim; higher flags fewer (the claim model\'s estimate that a reader wants it sourced; see --claim-model)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l claim-model -d 'What tells claims from sentences that need no source: `shipped` (the claim model built in), `rules` (the phrase rules alone, as ragcite 0.9), or a model file written by `ragcite train --claims`' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l max-uncited -d 'Most uncited claims allowed' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l max-number-mismatch -d 'Most number mismatches allowed' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l max-unsupported -d 'Most unsupported citations allowed' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l max-unknown-markers -d 'Most unknown markers (distinct labels that resolve to no chunk) allowed' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l max-misquotes -d 'Most misquotes allowed (quotations not found in the cited chunk)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l max-contradicted -d 'Most contradicted sentences allowed (a cited chunk says the opposite)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l max-weak -d 'Most weakly supported sentences allowed [default: unlimited]' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l max-abstentions -d 'Most abstentions allowed (sentences saying the sources do not cover something) [default: unlimited]' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l max-uncited-rate -d 'Highest share of claim sentences, over all records, that may be uncited claims' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l max-number-mismatch-rate -d 'Highest share of claim sentences that may be number mismatches' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l max-unsupported-rate -d 'Highest share of claim sentences that may be unsupported citations' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l max-contradicted-rate -d 'Highest share of claim sentences that may be contradicted' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l max-abstention-rate -d 'Highest share of checked records that may abstain at least once [default: unlimited]' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l max-failing-records -d 'Most records over a per-record limit [default: 0, or unlimited when a rate limit is set]' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l max-bad-records -d 'Most records that cannot be read (bad JSON, no answer or contexts field)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l baseline -d 'What an earlier `batch --format json` wrote: only findings it does not hold count against the limits, and the report says which were fixed' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l color -d 'When to colour the table (NO_COLOR and CLICOLOR_FORCE are honoured in `auto`)' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set; CLICOLOR_FORCE or FORCE_COLOR force it'
always\t''
never\t''"
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l stdin-filename -d 'The name to give standard input in reports [default: <stdin>]' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l config -d 'Read options from this file instead of the .ragcite.toml, ragcite.toml or pyproject.toml found above the working directory' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l all -d 'List every record in the table, not only the worst failing ones'
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -l isolated -d 'Ignore every configuration file'
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ragcite -n "__fish_ragcite_using_subcommand batch" -s V -l version -d 'Print version'
complete -c ragcite -n "__fish_ragcite_using_subcommand compare" -l format -d 'Output format' -r -f -a "table\t'The rates side by side, the records that changed and a one-line summary, for people'
json\t'One JSON document: the matching, both sides\' rates, each matched record\'s changes'
html\t'One self-contained HTML page of the same'"
complete -c ragcite -n "__fish_ragcite_using_subcommand compare" -l field -d 'Where a field is in each record, as KEY=PATH (KEY: answer, contexts, id or question); repeatable' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand compare" -l records -d 'Where the array of records is in a file that is one JSON object, as a path of keys (data, results.results, traces)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand compare" -l max-record-size -d 'Largest record (a JSON line, a CSV row, an element of the array of records), in bytes or with a unit (64KiB, 64MiB, 1GiB); a longer one stops the run' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand compare" -l max-open-traces -d 'Most traces of a trace export open at once (their spans waiting for the rest); opening one more closes the oldest, as at the end of the file' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand compare" -l max-trace-memory -d 'Most memory the open traces of a trace export hold, in bytes or with a unit (256MiB, 1GiB); past it the oldest is closed, as at the end of the file' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand compare" -l threshold -d 'Support threshold: the `support` score a sentence\'s best cited chunk must reach (the support model\'s estimate that the chunk backs the sentence; see --model)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand compare" -l lang -d 'Language of the stemmer, stop words, number format and abbreviations; `auto` detects it from the answer (and its chunks when the answer is short), English when the detector is unsure. A language given is used as is, with a warning when the answer looks written in another' -r -f -a "auto\t'Detect the answer\'s language (English when unsure)'
ar\t'Arabic'
da\t'Danish'
de\t'German'
el\t'Greek'
en\t'English'
es\t'Spanish'
fi\t'Finnish'
fr\t'French'
hu\t'Hungarian'
it\t'Italian'
ja\t'Japanese'
ko\t'Korean'
nl\t'Dutch'
no\t'Norwegian'
pt\t'Portuguese'
ro\t'Romanian'
ru\t'Russian'
sv\t'Swedish'
ta\t'Tamil'
tr\t'Turkish'
zh\t'Chinese'"
complete -c ragcite -n "__fish_ragcite_using_subcommand compare" -l citation-scope -d 'What a citation marker covers: its sentence, or also (`paragraph`) the sentences without a marker before it in its paragraph, when it ends the paragraph' -r -f -a "sentence\t'A marker covers the sentence it stands in'
paragraph\t'A paragraph\'s last sentence\'s markers also cover its earlier sentences without one'"
complete -c ragcite -n "__fish_ragcite_using_subcommand compare" -l marker -d 'Your own marker form besides the built-in ones: a regular expression whose one capture group is the label (`\\{\\{cite:(\\w+)\\}\\}` reads `{{cite:doc2}}` as a marker citing `doc2`)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand compare" -l model -d 'What scores support: `shipped` (the model built in), `formula` (the hand-weighted score of ragcite 0.1), or a model file written by `ragcite train`' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand compare" -l claim-threshold -d 'Claim threshold: the claim score an English sentence without a citation must reach to be an uncited claim; higher flags fewer (the claim model\'s estimate that a reader wants it sourced; see --claim-model)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand compare" -l claim-model -d 'What tells claims from sentences that need no source: `shipped` (the claim model built in), `rules` (the phrase rules alone, as ragcite 0.9), or a model file written by `ragcite train --claims`' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand compare" -l color -d 'When to colour the table (NO_COLOR and CLICOLOR_FORCE are honoured in `auto`)' -r -f -a "auto\t'Colour on a terminal, unless NO_COLOR is set; CLICOLOR_FORCE or FORCE_COLOR force it'
always\t''
never\t''"
complete -c ragcite -n "__fish_ragcite_using_subcommand compare" -l stdin-filename -d 'The name to give standard input in reports [default: <stdin>]' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand compare" -l config -d 'Read options from this file instead of the .ragcite.toml, ragcite.toml or pyproject.toml found above the working directory' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand compare" -l fail-if-worse -d 'Exit 1 when B is worse than A (more problem sentences per claim sentence), when records were left out (unreadable or unmatched), or when B has more lines not checked than A'
complete -c ragcite -n "__fish_ragcite_using_subcommand compare" -l all -d 'List every record that changed in the table, not only the first 20'
complete -c ragcite -n "__fish_ragcite_using_subcommand compare" -l isolated -d 'Ignore every configuration file'
complete -c ragcite -n "__fish_ragcite_using_subcommand compare" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ragcite -n "__fish_ragcite_using_subcommand compare" -s V -l version -d 'Print version'
complete -c ragcite -n "__fish_ragcite_using_subcommand eval" -l threshold -d 'Support threshold: the `support` score a sentence\'s best cited chunk must reach (the support model\'s estimate that the chunk backs the sentence; see --model)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand eval" -l lang -d 'Language of the stemmer, stop words, number format and abbreviations; `auto` detects it from the answer (and its chunks when the answer is short), English when the detector is unsure. A language given is used as is, with a warning when the answer looks written in another' -r -f -a "auto\t'Detect the answer\'s language (English when unsure)'
ar\t'Arabic'
da\t'Danish'
de\t'German'
el\t'Greek'
en\t'English'
es\t'Spanish'
fi\t'Finnish'
fr\t'French'
hu\t'Hungarian'
it\t'Italian'
ja\t'Japanese'
ko\t'Korean'
nl\t'Dutch'
no\t'Norwegian'
pt\t'Portuguese'
ro\t'Romanian'
ru\t'Russian'
sv\t'Swedish'
ta\t'Tamil'
tr\t'Turkish'
zh\t'Chinese'"
complete -c ragcite -n "__fish_ragcite_using_subcommand eval" -l citation-scope -d 'What a citation marker covers: its sentence, or also (`paragraph`) the sentences without a marker before it in its paragraph, when it ends the paragraph' -r -f -a "sentence\t'A marker covers the sentence it stands in'
paragraph\t'A paragraph\'s last sentence\'s markers also cover its earlier sentences without one'"
complete -c ragcite -n "__fish_ragcite_using_subcommand eval" -l marker -d 'Your own marker form besides the built-in ones: a regular expression whose one capture group is the label (`\\{\\{cite:(\\w+)\\}\\}` reads `{{cite:doc2}}` as a marker citing `doc2`)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand eval" -l model -d 'What scores support: `shipped` (the model built in), `formula` (the hand-weighted score of ragcite 0.1), or a model file written by `ragcite train`' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand eval" -l claim-threshold -d 'Claim threshold: the claim score an English sentence without a citation must reach to be an uncited claim; higher flags fewer (the claim model\'s estimate that a reader wants it sourced; see --claim-model)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand eval" -l claim-model -d 'What tells claims from sentences that need no source: `shipped` (the claim model built in), `rules` (the phrase rules alone, as ragcite 0.9), or a model file written by `ragcite train --claims`' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand eval" -l group-by -d 'The record field whose value groups the results' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand eval" -l format -d 'Output format' -r -f -a "table\t'A table per group and score histograms, for people'
json\t'One JSON document, for machines'"
complete -c ragcite -n "__fish_ragcite_using_subcommand eval" -l features -d 'Also write each labelled unit\'s support features, label and source ids to this JSON Lines file, for fitting a model (scripts/data/fit-support.py)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand eval" -l max-record-size -d 'Largest record (a labelled JSON line), in bytes or with a unit (64KiB, 64MiB, 1GiB); a longer one stops the run' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand eval" -l max-input-size -d 'Largest standard input kept in memory when two models read it, in bytes or with a unit' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand eval" -l lenient -d 'Use `label_lenient` where a sentence has one'
complete -c ragcite -n "__fish_ragcite_using_subcommand eval" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ragcite -n "__fish_ragcite_using_subcommand eval" -s V -l version -d 'Print version'
complete -c ragcite -n "__fish_ragcite_using_subcommand train" -s o -l output -d 'Write the model file here (written whole or not at all)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand train" -l trees -d 'Boosting rounds: one tree each' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand train" -l depth -d 'Depth of each tree' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand train" -l learning-rate -d 'Shrinkage of each tree\'s values' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand train" -l min-leaf -d 'Fewest labelled units a leaf may hold' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand train" -l max-record-size -d 'Largest record (a labelled JSON line), in bytes or with a unit (64KiB, 64MiB, 1GiB); a longer one stops the run' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand train" -l lenient -d 'Use `label_lenient` where a sentence has one'
complete -c ragcite -n "__fish_ragcite_using_subcommand train" -l claims -d 'Fit a claim model instead (for --claim-model): on whole answers whose sentences carry `claim`, `worthy` or `kind` labels'
complete -c ragcite -n "__fish_ragcite_using_subcommand train" -s h -l help -d 'Print help'
complete -c ragcite -n "__fish_ragcite_using_subcommand train" -s V -l version -d 'Print version'
complete -c ragcite -n "__fish_ragcite_using_subcommand quote" -l quote-file -d 'Read the quotation from a file' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand quote" -l format -d 'Output format' -r -f -a "text\t'One line: found where, or the closest passage and how far it is'
json\t'{"found", "offsets", "byteOffsets", "closest"}'"
complete -c ragcite -n "__fish_ragcite_using_subcommand quote" -l max-input-size -d 'Largest document or quote file read, in bytes or with a unit (64KiB, 256MiB, 1GiB); a larger one, or an endless one, is an input error' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand quote" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ragcite -n "__fish_ragcite_using_subcommand quote" -s V -l version -d 'Print version'
complete -c ragcite -n "__fish_ragcite_using_subcommand explain" -l answer-format -d 'Read the answer as this format instead of recognising it [default: auto]' -r -f -a "auto\t'Recognise the format from the content'
text\t'Plain text or Markdown'
ollama\t'Ollama /api/chat or /api/generate, JSON or NDJSON stream'
openai\t'OpenAI Chat Completions, JSON or SSE stream'
openai-responses\t'OpenAI Responses API, with file search results'
openai-assistants\t'OpenAI Assistants messages list, with file citations'
anthropic\t'Anthropic Messages, with citations'
cohere\t'Cohere Chat v2, with citations'
gemini\t'Gemini or Vertex AI generateContent, with grounding metadata'
citation-list\t'{"answer": ..., "citations": [{"source", "quote"}]}'
azure\t'Azure OpenAI On Your Data, [docN] = N-th citation'
perplexity\t'Perplexity Sonar, with search_results'
mistral\t'Mistral chat with reference chunks'
bedrock\t'AWS Bedrock Knowledge Bases RetrieveAndGenerate'
bedrock-converse\t'AWS Bedrock Converse, with document citations'
bedrock-agents\t'AWS Bedrock Agents InvokeAgent events, with traces'
langchain\t'LangChain retrieval chain output {answer, context}'
llamaindex\t'LlamaIndex Response {response, source_nodes}'
haystack\t'Haystack pipeline output with AnswerBuilder answers'
open-webui\t'Open WebUI chat export, [N] = N-th source file'
vectara\t'Vectara Query API v2 (summary with [N] over search_results)'
vertex-ai-search-answer\t'Vertex AI Search / Discovery Engine answer (servingConfigs.answer)'
amazon-q-business\t'Amazon Q Business ChatSync (systemMessage with sourceAttributions)'
azure-agentic-retrieval\t'Azure AI Search agentic retrieval, answer synthesis ([ref_id:N] over references)'
azure-agentic-retrieval-sources\t'Azure AI Search agentic retrieval, extractive (references only, no answer)'
pinecone-assistant\t'Pinecone Assistant chat (citations by position, with highlights)'
pinecone-assistant-context\t'Pinecone Assistant context snippets'
exa-answer\t'Exa /answer (sources for the whole answer, no inline citations)'
exa-search\t'Exa /search or /contents results with text'
xai-live-search\t'xAI chat completion with Live Search citations (URLs only)'
ragflow\t'RAGFlow chat completion ([ID:n] or ##n$$ over reference.chunks, 0-based)'
ragflow-openai\t'RAGFlow OpenAI-compatible chat completion with reference'
dify\t'Dify chat-messages (retriever_resources, no inline citations)'
r2r\t'R2R retrieval/rag ([short id] markers over chunk_search_results)'
graphrag\t'GraphRAG local or global search saved as {response, context_data}'
lightrag\t'LightRAG /query with references ([n] names a file)'
privategpt\t'PrivateGPT chat completion with sources (no inline citations)'
anythingllm\t'AnythingLLM workspace chat (textResponse with sources)'
dspy\t'DSPy Prediction (answer, context, reasoning)'
vercel-ai-sdk\t'Vercel AI SDK text result, JSON.stringify(result) (steps, source parts)'
vercel-ai-sdk-fields\t'Vercel AI SDK text result with its fields named (text, sources)'
storm-url-to-info\t'STORM url_to_info.json ([N] = url_to_unified_index, sources only)'
alce\t'ALCE result record (output with [n] over docs, gold answer left out)'
ragchecker\t'RAGChecker input record (response over retrieved_context)'
dspy-evaluate\t'DSPy Evaluate result row (pred_answer, context)'
mlflow-evaluate\t'MLflow evaluate result table row (inputs, outputs, context)'"
complete -c ragcite -n "__fish_ragcite_using_subcommand explain" -l max-input-size -d 'Largest input read whole, in bytes or with a unit (64KiB, 256MiB, 1GiB); a larger one, or an endless one, is an input error' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand explain" -l threshold -d 'Support threshold: the `support` score a sentence\'s best cited chunk must reach (the support model\'s estimate that the chunk backs the sentence; see --model)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand explain" -l lang -d 'Language of the stemmer, stop words, number format and abbreviations; `auto` detects it from the answer (and its chunks when the answer is short), English when the detector is unsure. A language given is used as is, with a warning when the answer looks written in another' -r -f -a "auto\t'Detect the answer\'s language (English when unsure)'
ar\t'Arabic'
da\t'Danish'
de\t'German'
el\t'Greek'
en\t'English'
es\t'Spanish'
fi\t'Finnish'
fr\t'French'
hu\t'Hungarian'
it\t'Italian'
ja\t'Japanese'
ko\t'Korean'
nl\t'Dutch'
no\t'Norwegian'
pt\t'Portuguese'
ro\t'Romanian'
ru\t'Russian'
sv\t'Swedish'
ta\t'Tamil'
tr\t'Turkish'
zh\t'Chinese'"
complete -c ragcite -n "__fish_ragcite_using_subcommand explain" -l citation-scope -d 'What a citation marker covers: its sentence, or also (`paragraph`) the sentences without a marker before it in its paragraph, when it ends the paragraph' -r -f -a "sentence\t'A marker covers the sentence it stands in'
paragraph\t'A paragraph\'s last sentence\'s markers also cover its earlier sentences without one'"
complete -c ragcite -n "__fish_ragcite_using_subcommand explain" -l marker -d 'Your own marker form besides the built-in ones: a regular expression whose one capture group is the label (`\\{\\{cite:(\\w+)\\}\\}` reads `{{cite:doc2}}` as a marker citing `doc2`)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand explain" -l model -d 'What scores support: `shipped` (the model built in), `formula` (the hand-weighted score of ragcite 0.1), or a model file written by `ragcite train`' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand explain" -l claim-threshold -d 'Claim threshold: the claim score an English sentence without a citation must reach to be an uncited claim; higher flags fewer (the claim model\'s estimate that a reader wants it sourced; see --claim-model)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand explain" -l claim-model -d 'What tells claims from sentences that need no source: `shipped` (the claim model built in), `rules` (the phrase rules alone, as ragcite 0.9), or a model file written by `ragcite train --claims`' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand explain" -l features -d 'List the support model\'s features and what each measures'
complete -c ragcite -n "__fish_ragcite_using_subcommand explain" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ragcite -n "__fish_ragcite_using_subcommand explain" -s V -l version -d 'Print version'
complete -c ragcite -n "__fish_ragcite_using_subcommand formats; and not __fish_seen_subcommand_from detect help" -l format -d 'Output format' -r -f -a "table\t'Aligned columns, for people'
json\t'One JSON document, for machines'"
complete -c ragcite -n "__fish_ragcite_using_subcommand formats; and not __fish_seen_subcommand_from detect help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ragcite -n "__fish_ragcite_using_subcommand formats; and not __fish_seen_subcommand_from detect help" -s V -l version -d 'Print version'
complete -c ragcite -n "__fish_ragcite_using_subcommand formats; and not __fish_seen_subcommand_from detect help" -f -a "detect" -d 'Say which formats a file matches, with their scores, and which one reads it'
complete -c ragcite -n "__fish_ragcite_using_subcommand formats; and not __fish_seen_subcommand_from detect help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ragcite -n "__fish_ragcite_using_subcommand formats; and __fish_seen_subcommand_from detect" -l max-input-size -d 'Largest input read whole, in bytes or with a unit (64KiB, 256MiB, 1GiB)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand formats; and __fish_seen_subcommand_from detect" -l format -d 'Output format' -r -f -a "table\t'Aligned columns, for people'
json\t'One JSON document, for machines'"
complete -c ragcite -n "__fish_ragcite_using_subcommand formats; and __fish_seen_subcommand_from detect" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ragcite -n "__fish_ragcite_using_subcommand formats; and __fish_seen_subcommand_from detect" -s V -l version -d 'Print version'
complete -c ragcite -n "__fish_ragcite_using_subcommand formats; and __fish_seen_subcommand_from help" -f -a "detect" -d 'Say which formats a file matches, with their scores, and which one reads it'
complete -c ragcite -n "__fish_ragcite_using_subcommand formats; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ragcite -n "__fish_ragcite_using_subcommand serve" -l host -d 'Address to bind; anything but a loopback address exposes the server to the network' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand serve" -l port -d 'Port to bind; 0 picks a free one (the first line on stderr says which)' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand serve" -l documents -d 'A folder whose files verify_citation can name by their path in it (document_id)' -r -F
complete -c ragcite -n "__fish_ragcite_using_subcommand serve" -l rate-limit -d 'Requests per second each client may make (a token bucket of that size); over it, 429' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand serve" -l max-concurrent -d 'Checks run at once [default: the number of cores]; when eight times as many wait, 503' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand serve" -l max-concurrent-per-client -d 'Checks one client address may run at once [default: one less than --max-concurrent, at least 1], so that a slot stays for the others; a freed slot goes to the client running the fewest' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand serve" -l timeout -d 'Seconds a connection may stay silent before its request\'s headers, then take to send them, and again its body; then 408 or a closed connection' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand serve" -l max-connections -d 'Connections open at once; beyond, the oldest one waiting for a request is closed, or the new one when none waits' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand serve" -l max-connections-per-client -d 'Connections open at once from one client address (raise it behind a reverse proxy); beyond, as for --max-connections' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand serve" -l check-timeout -d 'Seconds one check may run (from its start, not its wait); then it stops and the request gets 503 check-timeout' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand serve" -l cors -d 'Allow this origin (`https://example.com`, or `*` for any) to call the API from a browser; no CORS without it' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand serve" -l model -d 'What scores support in every request: `shipped` (the model built in), `formula` (the hand-weighted score of ragcite 0.1), or a model file written by `ragcite train`' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand serve" -l config -d 'Read options from the [serve] table of this file instead of the configuration found above the working directory' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand serve" -l cors-mcp -d 'Let the --cors origin call /mcp too (its tools read the documents folder); without it, /mcp sends no CORS header'
complete -c ragcite -n "__fish_ragcite_using_subcommand serve" -l isolated -d 'Ignore every configuration file'
complete -c ragcite -n "__fish_ragcite_using_subcommand serve" -s h -l help -d 'Print help'
complete -c ragcite -n "__fish_ragcite_using_subcommand serve" -s V -l version -d 'Print version'
complete -c ragcite -n "__fish_ragcite_using_subcommand mcp" -l documents -d 'A folder whose files verify_citation can name by their path in it (document_id)' -r -F
complete -c ragcite -n "__fish_ragcite_using_subcommand mcp" -l model -d 'What scores support in every call: `shipped` (the model built in), `formula` (the hand-weighted score of ragcite 0.1), or a model file written by `ragcite train`' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand mcp" -l check-timeout -d 'Seconds one rag_citation_debugger check may run (from its start); then it stops and the call gets a tool error' -r
complete -c ragcite -n "__fish_ragcite_using_subcommand mcp" -s h -l help -d 'Print help'
complete -c ragcite -n "__fish_ragcite_using_subcommand mcp" -s V -l version -d 'Print version'
complete -c ragcite -n "__fish_ragcite_using_subcommand help; and not __fish_seen_subcommand_from check batch compare eval train quote explain formats serve mcp help" -f -a "check" -d 'Check an answer\'s citations against the retrieved chunks'
complete -c ragcite -n "__fish_ragcite_using_subcommand help; and not __fish_seen_subcommand_from check batch compare eval train quote explain formats serve mcp help" -f -a "batch" -d 'Check every record of an eval transcript file (RAGAS, DeepEval, promptfoo, traces, JSON Lines, CSV)'
complete -c ragcite -n "__fish_ragcite_using_subcommand help; and not __fish_seen_subcommand_from check batch compare eval train quote explain formats serve mcp help" -f -a "compare" -d 'Compare two transcripts of the same questions (two prompts, two models): rates, findings fixed and new, which is better'
complete -c ragcite -n "__fish_ragcite_using_subcommand help; and not __fish_seen_subcommand_from check batch compare eval train quote explain formats serve mcp help" -f -a "eval" -d 'Measure agreement with human labels: ROC-AUC, macro-F1, the best threshold'
complete -c ragcite -n "__fish_ragcite_using_subcommand help; and not __fish_seen_subcommand_from check batch compare eval train quote explain formats serve mcp help" -f -a "train" -d 'Fit your own support model on labelled transcripts (gradient-boosted trees)'
complete -c ragcite -n "__fish_ragcite_using_subcommand help; and not __fish_seen_subcommand_from check batch compare eval train quote explain formats serve mcp help" -f -a "quote" -d 'Verify that a quotation is word for word in a document, or show the closest passage'
complete -c ragcite -n "__fish_ragcite_using_subcommand help; and not __fish_seen_subcommand_from check batch compare eval train quote explain formats serve mcp help" -f -a "explain" -d 'Explain a verdict (what it means, how it is decided, what to do), or each sentence of an answer'
complete -c ragcite -n "__fish_ragcite_using_subcommand help; and not __fish_seen_subcommand_from check batch compare eval train quote explain formats serve mcp help" -f -a "formats" -d 'List the answer formats (readers and profiles), or say which one a file matches'
complete -c ragcite -n "__fish_ragcite_using_subcommand help; and not __fish_seen_subcommand_from check batch compare eval train quote explain formats serve mcp help" -f -a "serve" -d 'Serve the HTTP API (the RAG Citation Debugger contract) and MCP at /mcp'
complete -c ragcite -n "__fish_ragcite_using_subcommand help; and not __fish_seen_subcommand_from check batch compare eval train quote explain formats serve mcp help" -f -a "mcp" -d 'Serve the MCP tools over stdio (rag_citation_debugger, verify_citation)'
complete -c ragcite -n "__fish_ragcite_using_subcommand help; and not __fish_seen_subcommand_from check batch compare eval train quote explain formats serve mcp help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ragcite -n "__fish_ragcite_using_subcommand help; and __fish_seen_subcommand_from formats" -f -a "detect" -d 'Say which formats a file matches, with their scores, and which one reads it'
