//! `--citation-scope paragraph`: the sentences of a paragraph without a marker of their own
//! take the markers of the paragraph's last sentence.

use crate::support::SentenceInput;

/// The most labels, and chunks, a paragraph's last sentence may give each of its sentences: a
/// citation group is a few labels, and the bound keeps a paragraph of many sentences ending in a
/// huge group (`[1000-1999][2000-2999]…`) linear.
const MAX_INHERITED: usize = 64;

/// `--citation-scope paragraph`: in each paragraph (lines up to a blank line, a heading, a list
/// item or a source list), the sentences without a marker of their own take the markers of the
/// paragraph's last sentence, when it has some. Headings and source-list lines take none.
pub(super) fn inherit_paragraph_citations(sentences: &mut [SentenceInput], answer: &str) {
    let mut k = 0;
    while k < sentences.len() {
        let mut end = k + 1;
        while end < sentences.len()
            && !starts_paragraph(answer, &sentences[end - 1], &sentences[end])
        {
            end += 1;
        }
        let (paragraph, last) = sentences[k..end].split_at_mut(end - k - 1);
        let last = &last[0];
        let inheritable = !last.labels.is_empty()
            && last.labels.len() <= MAX_INHERITED
            && last.cited.len() <= MAX_INHERITED
            && !last.position.heading
            && !last.position.reference;
        if inheritable {
            for sentence in paragraph {
                if sentence.labels.is_empty()
                    && sentence.native.is_empty()
                    && !sentence.position.heading
                    && !sentence.position.reference
                {
                    sentence.labels = last.labels.clone();
                    sentence.cited = last.cited.clone();
                    sentence.unknown = last.unknown.clone();
                    sentence.inherited_from = Some(end);
                }
            }
        }
        k = end;
    }
}

/// Whether `next` opens a new paragraph after `previous`: a blank line (or a blanked block)
/// between them, `next` starts a list item or a quotation, or either is a heading, or one is
/// a source-list line and the other is not.
pub(super) fn starts_paragraph(
    answer: &str,
    previous: &SentenceInput,
    next: &SentenceInput,
) -> bool {
    if next.position.heading
        || previous.position.heading
        || next.position.reference != previous.position.reference
    {
        return true;
    }
    let between = &answer[previous.position.span.end..next.position.span.start];
    let Some(line_break) = between.rfind('\n') else {
        return false;
    };
    if between.matches('\n').count() >= 2 {
        return true;
    }
    starts_item(&between[line_break + 1..])
        || between[line_break + 1..].trim_start().starts_with('>')
}

/// Whether what stands between a line's start and a sentence (`prefix`) opens a list item: a
/// bullet or an enumerator (`1.`, `2)`).
pub(super) fn starts_item(prefix: &str) -> bool {
    let prefix = prefix.trim();
    prefix.starts_with(['-', '*', '+'])
        || (prefix.ends_with(['.', ')'])
            && prefix.len() > 1
            && prefix[..prefix.len() - 1]
                .bytes()
                .all(|b| b.is_ascii_digit()))
}
