//! The citations of one sentence, as the marker stage reads them: its markers' labels (a
//! provider's citation that covers it counting exactly like a marker), the chunks they resolve
//! to, the labels that resolve to none, and its text with the markers blanked (they are no
//! words or numbers of the sentence).

use rustc_hash::FxHashSet;

use super::{Marker, ResolvedCitation, Resolver, markers};

/// What the marker stage finds in one sentence.
#[derive(Debug, Clone, PartialEq)]
pub struct SentenceCitations {
    /// The sentence's prose with its markers blanked to spaces (offsets kept).
    pub text: String,
    /// Marker labels, each once, in order; then the labels of the provider citations.
    pub labels: Vec<String>,
    /// Positions of the chunks the labels resolve to, each once, in order.
    pub cited: Vec<usize>,
    /// Labels that resolve to nothing.
    pub unknown: Vec<String>,
}

/// The citations of the sentence whose prose is `prose`, standing at byte `start` of the
/// answer's prose: `reference` when it is a line of the answer's source list (its labels name
/// sources, they cite nothing), `native` the provider citations that cover it (indices into
/// `citations`).
pub fn of_sentence(
    prose: &str,
    start: usize,
    reference: bool,
    native: &[usize],
    citations: &[ResolvedCitation],
    resolver: &Resolver,
) -> SentenceCitations {
    let found = if reference {
        Vec::new()
    } else {
        markers(prose, resolver)
    };
    let text = blanked(prose, &found);
    // A marker that a provider's citation spans is where that citation stands: the citation
    // says what it cites, and the marker's own label is no second citation (an OpenAI
    // Assistants `【4:0†source】` holds a message and a result index, no chunk's name; a web
    // search's `([site](url))` names the page its `url_citation` names).
    let is_native = |m: &Marker| {
        native.iter().any(|&k| {
            citations[k]
                .span
                .as_ref()
                .is_some_and(|s| s.start <= start + m.span.start && start + m.span.end <= s.end)
        })
    };
    let mut labels: Vec<String> = Vec::new();
    let mut seen_labels: FxHashSet<&str> = FxHashSet::default();
    for label in found
        .iter()
        .filter(|m| !is_native(m))
        .flat_map(|m| &m.labels)
    {
        if seen_labels.insert(label) {
            labels.push(label.clone());
        }
    }
    let mut targets: Vec<(String, &[usize])> = labels
        .iter()
        .map(|label| (label.clone(), resolver.resolve(label)))
        .collect();
    // A provider's citation counts exactly like a marker on the sentences it covers.
    for &k in native {
        let citation = &citations[k];
        if seen_labels.insert(&citation.label) {
            labels.push(citation.label.clone());
            targets.push((citation.label.clone(), &citation.chunks));
        }
    }
    let mut cited = Vec::new();
    let mut seen_chunks = FxHashSet::default();
    let mut unknown = Vec::new();
    for (label, chunks) in targets {
        if chunks.is_empty() {
            unknown.push(label);
        }
        for &chunk in chunks {
            if seen_chunks.insert(chunk) {
                cited.push(chunk);
            }
        }
    }
    SentenceCitations {
        text,
        labels,
        cited,
        unknown,
    }
}

/// `prose` with `markers` blanked to spaces (offsets kept): markers are not words or numbers
/// of the sentence.
pub fn blanked(prose: &str, markers: &[Marker]) -> String {
    let mut text = String::with_capacity(prose.len());
    let mut copied = 0;
    for m in markers {
        text.push_str(&prose[copied..m.span.start]);
        text.extend(std::iter::repeat_n(' ', m.span.len()));
        copied = m.span.end;
    }
    text.push_str(&prose[copied..]);
    text
}
