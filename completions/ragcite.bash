_ragcite() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="ragcite"
                ;;
            ragcite,batch)
                cmd="ragcite__subcmd__batch"
                ;;
            ragcite,check)
                cmd="ragcite__subcmd__check"
                ;;
            ragcite,compare)
                cmd="ragcite__subcmd__compare"
                ;;
            ragcite,eval)
                cmd="ragcite__subcmd__eval"
                ;;
            ragcite,explain)
                cmd="ragcite__subcmd__explain"
                ;;
            ragcite,formats)
                cmd="ragcite__subcmd__formats"
                ;;
            ragcite,help)
                cmd="ragcite__subcmd__help"
                ;;
            ragcite,mcp)
                cmd="ragcite__subcmd__mcp"
                ;;
            ragcite,quote)
                cmd="ragcite__subcmd__quote"
                ;;
            ragcite,serve)
                cmd="ragcite__subcmd__serve"
                ;;
            ragcite,train)
                cmd="ragcite__subcmd__train"
                ;;
            ragcite__subcmd__formats,detect)
                cmd="ragcite__subcmd__formats__subcmd__detect"
                ;;
            ragcite__subcmd__formats,help)
                cmd="ragcite__subcmd__formats__subcmd__help"
                ;;
            ragcite__subcmd__formats__subcmd__help,detect)
                cmd="ragcite__subcmd__formats__subcmd__help__subcmd__detect"
                ;;
            ragcite__subcmd__formats__subcmd__help,help)
                cmd="ragcite__subcmd__formats__subcmd__help__subcmd__help"
                ;;
            ragcite__subcmd__help,batch)
                cmd="ragcite__subcmd__help__subcmd__batch"
                ;;
            ragcite__subcmd__help,check)
                cmd="ragcite__subcmd__help__subcmd__check"
                ;;
            ragcite__subcmd__help,compare)
                cmd="ragcite__subcmd__help__subcmd__compare"
                ;;
            ragcite__subcmd__help,eval)
                cmd="ragcite__subcmd__help__subcmd__eval"
                ;;
            ragcite__subcmd__help,explain)
                cmd="ragcite__subcmd__help__subcmd__explain"
                ;;
            ragcite__subcmd__help,formats)
                cmd="ragcite__subcmd__help__subcmd__formats"
                ;;
            ragcite__subcmd__help,help)
                cmd="ragcite__subcmd__help__subcmd__help"
                ;;
            ragcite__subcmd__help,mcp)
                cmd="ragcite__subcmd__help__subcmd__mcp"
                ;;
            ragcite__subcmd__help,quote)
                cmd="ragcite__subcmd__help__subcmd__quote"
                ;;
            ragcite__subcmd__help,serve)
                cmd="ragcite__subcmd__help__subcmd__serve"
                ;;
            ragcite__subcmd__help,train)
                cmd="ragcite__subcmd__help__subcmd__train"
                ;;
            ragcite__subcmd__help__subcmd__formats,detect)
                cmd="ragcite__subcmd__help__subcmd__formats__subcmd__detect"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        ragcite)
            opts="-h -V --help --version check batch compare eval train quote explain formats serve mcp help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__batch)
            opts="-h -V --format --field --records --all --max-record-size --max-open-traces --max-trace-memory --threshold --lang --citation-scope --marker --model --claim-threshold --claim-model --max-uncited --max-number-mismatch --max-unsupported --max-unknown-markers --max-misquotes --max-contradicted --max-weak --max-abstentions --max-uncited-rate --max-number-mismatch-rate --max-unsupported-rate --max-contradicted-rate --max-abstention-rate --max-failing-records --max-bad-records --baseline --color --stdin-filename --config --isolated --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "table json jsonl sarif github gitlab junit html" -- "${cur}"))
                    return 0
                    ;;
                --field)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --records)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-record-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-open-traces)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-trace-memory)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lang)
                    COMPREPLY=($(compgen -W "auto ar da de el en es fi fr hu it ja ko nl no pt ro ru sv ta tr zh" -- "${cur}"))
                    return 0
                    ;;
                --citation-scope)
                    COMPREPLY=($(compgen -W "sentence paragraph" -- "${cur}"))
                    return 0
                    ;;
                --marker)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --model)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --claim-threshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --claim-model)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-uncited)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-number-mismatch)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-unsupported)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-unknown-markers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-misquotes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-contradicted)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-weak)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-abstentions)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-uncited-rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-number-mismatch-rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-unsupported-rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-contradicted-rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-abstention-rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-failing-records)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-bad-records)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --baseline)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --stdin-filename)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__check)
            opts="-h -V --format --answer-format --max-input-size --question --check-timeout --answer-path --sources-path --source-id-path --source-text-path --threshold --lang --citation-scope --marker --model --claim-threshold --claim-model --max-uncited --max-number-mismatch --max-unsupported --max-unknown-markers --max-misquotes --max-contradicted --max-weak --max-abstentions --color --stdin-filename --config --isolated --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "table full concise json sarif github gitlab junit api html" -- "${cur}"))
                    return 0
                    ;;
                --answer-format)
                    COMPREPLY=($(compgen -W "auto text ollama openai openai-responses openai-assistants anthropic cohere gemini citation-list azure perplexity mistral bedrock bedrock-converse bedrock-agents langchain llamaindex haystack open-webui vectara vertex-ai-search-answer amazon-q-business azure-agentic-retrieval azure-agentic-retrieval-sources pinecone-assistant pinecone-assistant-context exa-answer exa-search xai-live-search ragflow ragflow-openai dify r2r graphrag lightrag privategpt anythingllm dspy vercel-ai-sdk vercel-ai-sdk-fields storm-url-to-info alce ragchecker dspy-evaluate mlflow-evaluate" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --question)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --check-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --answer-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sources-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --source-id-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --source-text-path)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lang)
                    COMPREPLY=($(compgen -W "auto ar da de el en es fi fr hu it ja ko nl no pt ro ru sv ta tr zh" -- "${cur}"))
                    return 0
                    ;;
                --citation-scope)
                    COMPREPLY=($(compgen -W "sentence paragraph" -- "${cur}"))
                    return 0
                    ;;
                --marker)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --model)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --claim-threshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --claim-model)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-uncited)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-number-mismatch)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-unsupported)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-unknown-markers)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-misquotes)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-contradicted)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-weak)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-abstentions)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --stdin-filename)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__compare)
            opts="-h -V --format --fail-if-worse --all --field --records --max-record-size --max-open-traces --max-trace-memory --threshold --lang --citation-scope --marker --model --claim-threshold --claim-model --color --stdin-filename --config --isolated --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "table json html" -- "${cur}"))
                    return 0
                    ;;
                --field)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --records)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-record-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-open-traces)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-trace-memory)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lang)
                    COMPREPLY=($(compgen -W "auto ar da de el en es fi fr hu it ja ko nl no pt ro ru sv ta tr zh" -- "${cur}"))
                    return 0
                    ;;
                --citation-scope)
                    COMPREPLY=($(compgen -W "sentence paragraph" -- "${cur}"))
                    return 0
                    ;;
                --marker)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --model)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --claim-threshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --claim-model)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --stdin-filename)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__eval)
            opts="-h -V --threshold --lang --citation-scope --marker --model --claim-threshold --claim-model --lenient --group-by --format --features --max-record-size --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --threshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lang)
                    COMPREPLY=($(compgen -W "auto ar da de el en es fi fr hu it ja ko nl no pt ro ru sv ta tr zh" -- "${cur}"))
                    return 0
                    ;;
                --citation-scope)
                    COMPREPLY=($(compgen -W "sentence paragraph" -- "${cur}"))
                    return 0
                    ;;
                --marker)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --model)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --claim-threshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --claim-model)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --group-by)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "table json" -- "${cur}"))
                    return 0
                    ;;
                --features)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-record-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__explain)
            opts="-h -V --features --answer-format --max-input-size --threshold --lang --citation-scope --marker --model --claim-threshold --claim-model --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --answer-format)
                    COMPREPLY=($(compgen -W "auto text ollama openai openai-responses openai-assistants anthropic cohere gemini citation-list azure perplexity mistral bedrock bedrock-converse bedrock-agents langchain llamaindex haystack open-webui vectara vertex-ai-search-answer amazon-q-business azure-agentic-retrieval azure-agentic-retrieval-sources pinecone-assistant pinecone-assistant-context exa-answer exa-search xai-live-search ragflow ragflow-openai dify r2r graphrag lightrag privategpt anythingllm dspy vercel-ai-sdk vercel-ai-sdk-fields storm-url-to-info alce ragchecker dspy-evaluate mlflow-evaluate" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --threshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --lang)
                    COMPREPLY=($(compgen -W "auto ar da de el en es fi fr hu it ja ko nl no pt ro ru sv ta tr zh" -- "${cur}"))
                    return 0
                    ;;
                --citation-scope)
                    COMPREPLY=($(compgen -W "sentence paragraph" -- "${cur}"))
                    return 0
                    ;;
                --marker)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --model)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --claim-threshold)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --claim-model)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__formats)
            opts="-h -V --format --help --version detect help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "table json" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__formats__subcmd__detect)
            opts="-h -V --max-input-size --format --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "table json" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__formats__subcmd__help)
            opts="detect help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__formats__subcmd__help__subcmd__detect)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__formats__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__help)
            opts="check batch compare eval train quote explain formats serve mcp help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__help__subcmd__batch)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__help__subcmd__check)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__help__subcmd__compare)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__help__subcmd__eval)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__help__subcmd__explain)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__help__subcmd__formats)
            opts="detect"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__help__subcmd__formats__subcmd__detect)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__help__subcmd__mcp)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__help__subcmd__quote)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__help__subcmd__serve)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__help__subcmd__train)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__mcp)
            opts="-h -V --documents --model --check-timeout --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --documents)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --model)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --check-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__quote)
            opts="-h -V --quote-file --format --max-input-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --quote-file)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --max-input-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__serve)
            opts="-h -V --host --port --documents --rate-limit --max-concurrent --max-concurrent-per-client --timeout --max-connections --max-connections-per-client --check-timeout --cors --cors-mcp --model --config --isolated --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --host)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --port)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --documents)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --rate-limit)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-concurrent)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-concurrent-per-client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-connections)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-connections-per-client)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --check-timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cors)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --model)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --config)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        ragcite__subcmd__train)
            opts="-o -h -V --output --trees --depth --learning-rate --min-leaf --lenient --claims --max-record-size --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -o)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --trees)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --depth)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --learning-rate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --min-leaf)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --max-record-size)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _ragcite -o nosort -o bashdefault -o default ragcite
else
    complete -F _ragcite -o bashdefault -o default ragcite
fi
