//! Parenthesised links to web addresses as markers: `([site](https://…))`, as OpenAI web
//! search and GPT Researcher write them after the sentence they cite.

/// The length of the group of parenthesised links to web addresses that opens `rest`
/// (`([site](https://…))`, see [`links`]), if one does.
pub(crate) fn link_group(rest: &str) -> Option<usize> {
    links(rest).map(|(_, len)| len)
}

/// How far a group of links may reach, in bytes: web addresses are longer than labels.
const MAX_LINKS_LEN: usize = 1024;

/// `([title](https://…))`, or several such links separated by commas or semicolons: the
/// parenthesised Markdown links that OpenAI web search and GPT Researcher put after a
/// sentence. The labels are the addresses (resolved to chunks by their page, see
/// [`super::url::normalize`]); a link to anything but a web address, or a bare link without the
/// parentheses around it, is no marker.
pub(super) fn links(rest: &str) -> Option<(Vec<String>, usize)> {
    let bytes = &rest.as_bytes()[..rest.len().min(MAX_LINKS_LEN)];
    let spaces = |mut i: usize| {
        while bytes.get(i) == Some(&b' ') {
            i += 1;
        }
        i
    };
    let mut i = spaces(1);
    let mut labels = Vec::new();
    loop {
        if bytes.get(i) != Some(&b'[') {
            return None;
        }
        i += 1;
        while let Some(&b) = bytes.get(i) {
            if matches!(b, b']' | b'[' | b'\n') {
                break;
            }
            i += 1;
        }
        if bytes.get(i) != Some(&b']') || bytes.get(i + 1) != Some(&b'(') {
            return None;
        }
        i += 2;
        let start = i;
        // An address may hold balanced parentheses (`/wiki/Paris_(city)`).
        let mut depth = 0usize;
        loop {
            match bytes.get(i)? {
                b'(' => depth += 1,
                b')' if depth == 0 => break,
                b')' => depth -= 1,
                b if b.is_ascii_whitespace() => return None,
                _ => {}
            }
            i += 1;
        }
        let address = &rest[start..i];
        super::url::normalize(address)?;
        labels.push(address.to_string());
        i = spaces(i + 1);
        match bytes.get(i)? {
            b')' => return Some((labels, i + 1)),
            b',' | b';' => i = spaces(i + 1),
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::marker::{Resolver, markers};

    #[test]
    fn parenthesised_links_to_web_addresses_are_markers() {
        let text = "It is tall. ([en.wikipedia.org](https://en.wikipedia.org/wiki/Eiffel_Tower?utm_source=openai)) Next ([a](https://a.example/x_(y)), [b](http://b.example)).";
        let found = markers(text, &Resolver::default());
        let labels: Vec<&[String]> = found.iter().map(|m| m.labels.as_slice()).collect();
        assert_eq!(
            labels,
            [
                &["https://en.wikipedia.org/wiki/Eiffel_Tower?utm_source=openai".to_string()][..],
                &[
                    "https://a.example/x_(y)".to_string(),
                    "http://b.example".to_string()
                ][..],
            ]
        );
        assert_eq!(
            &text[found[0].span.clone()],
            "([en.wikipedia.org](https://en.wikipedia.org/wiki/Eiffel_Tower?utm_source=openai))"
        );
        // A link in prose, a link to a file, and an unclosed group are none.
        for prose in [
            "See [the docs](https://example.com) for more.",
            "It is tall ([notes](notes.md)).",
            "It is tall ([a](https://a.example) and more).",
        ] {
            assert!(markers(prose, &Resolver::default()).is_empty(), "{prose}");
        }
    }
}
