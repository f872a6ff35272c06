//! `ragcite check`: one answer against its chunks.

use std::io::{self, Write};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use ragcite::emit::{AnswerInput, InputFile, Inputs, Run};
use ragcite::input::SourceMap;
use ragcite::{AnswerFormat, Checker, Deadline, input};

use super::{warn, written};
use crate::cli::{CheckArgs, Format};
use crate::exit::ExitStatus;
use crate::files::read_input;

pub fn run(args: &CheckArgs) -> Result<ExitStatus> {
    if args.answer == "-" && args.chunks.as_deref() == Some("-") {
        bail!("only one of ANSWER and CHUNKS can be `-` (standard input)");
    }
    let (answer_bytes, _) = read_input(&args.answer, args.max_input_size)?;
    let mut out = io::BufWriter::new(io::stdout().lock());
    let read_chunks = |path: &str| read_input(path, args.max_input_size).map(|(bytes, _)| bytes);
    let progress = crate::terminal::shows_progress();
    let (status, result) = write_with(args, answer_bytes, &read_chunks, &mut out, progress)?;
    written(result.and_then(|()| out.flush()), "report")?;
    Ok(status)
}

/// Reads the answer and the chunks named on the command line (the chunks may be left out when
/// the answer carries its sources), for commands that check without writing a report.
pub fn read_inputs(
    answer_path: &str,
    chunks_path: Option<&str>,
    format: Option<ragcite::AnswerFormat>,
    max_input_size: u64,
) -> Result<(ragcite::Answer, ragcite::Chunks)> {
    let (answer_bytes, answer_name) = read_input(answer_path, max_input_size)?;
    let mut answer =
        input::read_answer(&answer_bytes, format).with_context(|| answer_name.clone())?;
    if input::is_blank(&answer.text) {
        bail!("{answer_name}: the response holds no answer text");
    }
    let chunks = match chunks_path {
        Some(path) => {
            let (bytes, name) = read_input(path, max_input_size)?;
            input::read_chunks_named(&bytes, path).with_context(|| name)?
        }
        None => answer.sources.take().with_context(|| {
            format!(
                "{answer_name}: {}",
                input::response::where_sources_are(answer.format)
            )
        })?,
    };
    Ok((answer, chunks))
}

/// Reads the answer (its bytes given) and the chunks (`read_chunks` reads the CHUNKS argument,
/// after the answer is read), checks them and writes the report in the chosen format to `out`:
/// the exit status, and how writing went. The Python package calls it with text it holds.
pub fn write(
    args: &CheckArgs,
    answer_bytes: Vec<u8>,
    read_chunks: &dyn Fn(&str) -> Result<Vec<u8>>,
    out: &mut dyn Write,
) -> Result<(ExitStatus, io::Result<()>)> {
    write_with(args, answer_bytes, read_chunks, out, false)
}

/// [`write`], with `progress`: a progress bar of the sentences judged on stderr while a long
/// check runs.
fn write_with(
    args: &CheckArgs,
    answer_bytes: Vec<u8>,
    read_chunks: &dyn Fn(&str) -> Result<Vec<u8>>,
    out: &mut dyn Write,
    progress: bool,
) -> Result<(ExitStatus, io::Result<()>)> {
    let answer_name = args.output.name_of(&args.answer);
    let format = match args.paths.format()? {
        Some(format) => Some(format),
        None => args.answer_format.0,
    };
    let mut answer =
        input::read_answer(&answer_bytes, format).with_context(|| answer_name.clone())?;
    if input::is_blank(&answer.text) {
        bail!("{answer_name}: the response holds no answer text");
    }
    // `--question` wins over the question a response holds (an Open WebUI chat export's).
    answer.question = args.question.clone().or(answer.question.take());
    // Only the API envelope echoes the inputs as given.
    let echo = |bytes: &[u8]| match args.format {
        Format::Api => input::decode(bytes).unwrap_or_default().to_string(),
        _ => String::new(),
    };
    let answer_text = echo(&answer_bytes);
    // A chunks file wins over the sources the response carries.
    let (chunks, chunks_name, chunks_text) = match &args.chunks {
        Some(path) => {
            let chunk_bytes = read_chunks(path)?;
            let chunks_name = args.output.name_of(path);
            let chunks = input::read_chunks_named(&chunk_bytes, path)
                .with_context(|| chunks_name.clone())?;
            (chunks, chunks_name, echo(&chunk_bytes))
        }
        None => match answer.sources.take() {
            Some(sources) => (sources, answer_name.clone(), String::new()),
            None => bail!(
                "{answer_name}: {}",
                input::response::where_sources_are(answer.format)
            ),
        },
    };

    let options = args.checking.options()?;
    let limits = args.limits.limits();
    let emitter = args
        .format
        .emitter(&args.output, &answer_text, &chunks_text, (&answer, &chunks));
    // A response's text placed in its file, for the outputs that point into the file.
    let source = (emitter.file_positions() && answer.format != AnswerFormat::Text)
        .then(|| Arc::new(SourceMap::new(&answer_bytes, &answer.text)));
    drop(answer_bytes);
    let deadline = args
        .check_timeout
        .map_or_else(Deadline::none, |s| Deadline::after(Duration::from_secs(s)));
    let checker = Checker::new(options.clone());
    let checked = crate::terminal::with_check_progress(progress, &deadline, || {
        checker.check_within(&answer, &chunks, &deadline)
    });
    let Ok(mut report) = checked else {
        let (judged, total) = deadline.progress();
        bail!(
            "{answer_name}: the check ran longer than --check-timeout {} s and was stopped \
             ({judged} of {total} sentences judged); raise --check-timeout, or check fewer \
             sentences or chunks",
            args.check_timeout.unwrap_or_default()
        );
    };
    report.source = source;
    let gate = limits.evaluate(&report.result.counts);
    let inputs = Inputs {
        answer: AnswerInput {
            path: answer_name,
            format: answer.format.name().to_string(),
            streamed: answer.streamed,
            tokens: answer.usage,
        },
        chunks: InputFile {
            path: chunks_name,
            format: chunks.format.name().to_string(),
        },
        threshold: options.threshold,
        model: args.checking.model.clone(),
        lang: report.language.used.code().to_string(),
        lang_detected: report.language.auto,
        limits,
        config: args.output.config_used.clone(),
    };
    let run = Run {
        report: &report,
        gate: &gate,
        inputs: &inputs,
    };
    let result = emitter.emit(&run, out);
    if let Some(left_out) = emitter.left_out(&run) {
        warn(&left_out);
    }
    Ok((ExitStatus::from(&gate), result))
}
