//! A Giskard RAGET report folder, as `RAGReport.save(folder)` writes it: `testset.jsonl` (one
//! question a line: `id`, `question`, `reference_answer`, `reference_context`, `metadata`) and
//! `agent_answer.json` (a JSON array of the agent's answers, `{message, documents}`, in the
//! testset's order), besides `metrics_results.json` and `report_details.json`. Read as one
//! transcript: line i of the testset and answer i make record i, `{id, question,
//! reference_answer, answer: message, contexts: documents}`; the documents are what the agent
//! retrieved (`reference_context` is where the question came from, and is not read). Both files
//! are streamed side by side: one question and one answer are held at a time.

use std::io::BufReader;
use std::path::Path;

use serde_json::{Value, json};

use super::scan::{RawRecord, RecordScanner, ScanError, Scanned};

/// The two files a report folder must hold.
pub const TESTSET: &str = "testset.jsonl";
pub const ANSWERS: &str = "agent_answer.json";

/// Whether `path` is a folder holding a Giskard report.
pub fn is_report_folder(path: &Path) -> bool {
    path.is_dir() && path.join(TESTSET).is_file() && path.join(ANSWERS).is_file()
}

/// The records of a report folder, question by question.
pub struct ReportFolder {
    testset: RecordScanner<'static>,
    answers: RecordScanner<'static>,
    ended: bool,
}

impl ReportFolder {
    /// Opens the two files; `max_record` bounds a question and an answer as it bounds a record.
    pub fn open(folder: &Path, max_record: usize) -> std::io::Result<Self> {
        let open = |name: &str| -> std::io::Result<RecordScanner<'static>> {
            let file = std::fs::File::open(folder.join(name))?;
            Ok(RecordScanner::named(BufReader::new(file), name).with_max_record(max_record))
        };
        Ok(ReportFolder {
            testset: open(TESTSET)?,
            answers: open(ANSWERS)?,
            ended: false,
        })
    }
}

/// A scan error of one of the files, naming it.
fn named(file: &str, e: ScanError) -> ScanError {
    match e {
        ScanError::Structure { line, message } => ScanError::Structure {
            line,
            message: format!("{file}: {message}"),
        },
        ScanError::TooLong { line, limit } => ScanError::Structure {
            line,
            message: format!(
                "{file}: a record longer than {} (--max-record-size raises it)",
                super::scan::size_name(limit as u64)
            ),
        },
        other => other,
    }
}

/// Question and answer as one record; a bad record when either is not an object.
fn joined(question: RawRecord, answer: &[u8]) -> Scanned {
    let line = question.line;
    let bad = |message: String| Scanned::Bad { line, message };
    let Ok(Value::Object(question)) = serde_json::from_slice::<Value>(&question.bytes) else {
        return bad(format!("{TESTSET} line {line}: not a JSON object"));
    };
    let Ok(Value::Object(answer)) = serde_json::from_slice::<Value>(answer) else {
        return bad(format!(
            "{ANSWERS}: the answer to line {line} is not a JSON object"
        ));
    };
    let record = json!({
        "id": question.get("id"),
        "question": question.get("question"),
        "reference_answer": question.get("reference_answer"),
        "answer": answer.get("message"),
        "contexts": answer.get("documents"),
    });
    Scanned::Record(RawRecord {
        line,
        bytes: record.to_string().into_bytes(),
    })
}

impl Iterator for ReportFolder {
    type Item = Result<Scanned, ScanError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.ended {
            return None;
        }
        let question = self.testset.next();
        let answer = self.answers.next();
        let stop = |e: ScanError, ended: &mut bool| {
            *ended = true;
            Some(Err(e))
        };
        match (question, answer) {
            (None, None) => {
                self.ended = true;
                None
            }
            (Some(Err(e)), _) => stop(named(TESTSET, e), &mut self.ended),
            (_, Some(Err(e))) => stop(named(ANSWERS, e), &mut self.ended),
            (Some(Ok(question)), None) => {
                let line = match question {
                    Scanned::Record(raw) => raw.line,
                    Scanned::Bad { line, .. } => line,
                };
                stop(
                    ScanError::Structure {
                        line,
                        message: format!("{TESTSET} has more questions than {ANSWERS} has answers"),
                    },
                    &mut self.ended,
                )
            }
            (None, Some(Ok(_))) => stop(
                ScanError::Structure {
                    line: 1,
                    message: format!("{ANSWERS} has more answers than {TESTSET} has questions"),
                },
                &mut self.ended,
            ),
            (Some(Ok(Scanned::Bad { line, message })), Some(Ok(_))) => Some(Ok(Scanned::Bad {
                line,
                message: format!("{TESTSET}: {message}"),
            })),
            (Some(Ok(Scanned::Record(question))), Some(Ok(Scanned::Bad { message, .. }))) => {
                Some(Ok(Scanned::Bad {
                    line: question.line,
                    message: format!("{ANSWERS}: {message}"),
                }))
            }
            (Some(Ok(Scanned::Record(question))), Some(Ok(Scanned::Record(answer)))) => {
                Some(Ok(joined(question, &answer.bytes)))
            }
        }
    }
}
