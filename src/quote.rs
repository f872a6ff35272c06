//! Quote stage: normalises quotations and documents and finds a quotation in a document, or the
//! closest passage to it. (Placeholder: being replaced by the full implementation.)

use serde::Serialize;

/// A quotation found in a sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quotation {
    pub span: std::ops::Range<usize>,
    pub text: String,
}

pub fn quotations(sentence: &str) -> Vec<Quotation> {
    let mut found = Vec::new();
    let mut rest = 0;
    while let Some(open) = sentence[rest..].find('“') {
        let start = rest + open;
        let inner = start + '“'.len_utf8();
        let Some(close) = sentence[inner..].find('”') else {
            break;
        };
        let text = &sentence[inner..inner + close];
        let end = inner + close + '”'.len_utf8();
        if text.split_whitespace().count() >= 3 {
            found.push(Quotation {
                span: start..end,
                text: text.to_string(),
            });
        }
        rest = end;
    }
    found
}

pub struct QuoteSearch {
    lower: String,
    document: String,
}

impl QuoteSearch {
    pub fn new(document: &str) -> Self {
        QuoteSearch {
            lower: document.to_lowercase(),
            document: document.to_string(),
        }
    }

    pub fn find(&self, quote: &str) -> QuoteMatch {
        let q = quote.to_lowercase();
        match self
            .lower
            .find(&q)
            .filter(|_| self.lower.len() == self.document.len())
        {
            Some(b) if !q.is_empty() => {
                let s = self.document[..b].chars().count();
                let e = s + self.document[b..b + q.len()].chars().count();
                QuoteMatch {
                    found: true,
                    offsets: Some([s, e]),
                    byte_offsets: Some([b, b + q.len()]),
                    closest: None,
                }
            }
            _ => QuoteMatch {
                found: false,
                offsets: None,
                byte_offsets: None,
                closest: None,
            },
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QuoteMatch {
    pub found: bool,
    pub offsets: Option<[usize; 2]>,
    pub byte_offsets: Option<[usize; 2]>,
    pub closest: Option<Closest>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Closest {
    pub text: String,
    pub offsets: [usize; 2],
    pub similarity: f64,
    pub differing_words: usize,
}
