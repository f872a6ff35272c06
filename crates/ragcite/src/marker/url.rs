//! URLs as labels: two spellings of one page name the same source. A citation that is a URL
//! (`url_citation`, a link after a sentence) rarely matches the URL a user keyed a page by,
//! byte for byte: search tools append tracking parameters (OpenAI web search adds
//! `?utm_source=openai` to every URL), and the scheme, a `www.`, a trailing slash or a fragment
//! differ between the two.

/// Query parameters that say where a click came from, never which page it is: a parameter
/// whose name is one of these, or starts with `utm_`, is dropped.
const TRACKING: &[&str] = &[
    "fbclid", "gclid", "dclid", "gbraid", "wbraid", "msclkid", "yclid", "mc_cid", "mc_eid",
    "igshid", "srsltid", "_ga", "_gl", "ref_src", "ref_url",
];

/// The form two spellings of one page share, or `None` when `label` is no web address (it
/// must start with `http://` or `https://`, in any case):
///
/// - the scheme is dropped (`http` and `https` name the same page) and the host is lower-cased,
///   without a leading `www.`, credentials or the default port (`:80`, `:443`);
/// - the fragment (`#section`) is dropped, and so are the tracking parameters (`utm_*`,
///   `gclid`, `fbclid`, …); the other parameters keep their order and spelling;
/// - a trailing `/` of the path is dropped (`/wiki/` is `/wiki`; the root is empty).
///
/// The path keeps its case and its percent-encoding: servers tell `/Paris` from `/paris`.
pub fn normalize(label: &str) -> Option<String> {
    let scheme = label.find("://")?;
    if !label[..scheme].eq_ignore_ascii_case("http")
        && !label[..scheme].eq_ignore_ascii_case("https")
    {
        return None;
    }
    let rest = &label[scheme + 3..];
    let rest = rest.split('#').next().unwrap_or_default();
    let (before_query, query) = match rest.split_once('?') {
        Some((before, query)) => (before, Some(query)),
        None => (rest, None),
    };
    let (authority, path) = match before_query.find('/') {
        Some(slash) => before_query.split_at(slash),
        None => (before_query, ""),
    };
    let host = authority.rsplit('@').next().unwrap_or_default();
    let host = host
        .strip_suffix(":80")
        .or_else(|| host.strip_suffix(":443"))
        .unwrap_or(host)
        .to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    if host.is_empty() {
        return None;
    }
    let mut normal = String::with_capacity(label.len());
    normal.push_str(host);
    normal.push_str(path.trim_end_matches('/'));
    let kept: Vec<&str> = query
        .into_iter()
        .flat_map(|q| q.split('&'))
        .filter(|pair| {
            let name = pair.split('=').next().unwrap_or_default();
            !name.is_empty()
                && !name.to_ascii_lowercase().starts_with("utm_")
                && !TRACKING.iter().any(|t| name.eq_ignore_ascii_case(t))
        })
        .collect();
    if !kept.is_empty() {
        normal.push('?');
        normal.push_str(&kept.join("&"));
    }
    Some(normal)
}

#[cfg(test)]
mod tests {
    use super::normalize;

    #[test]
    fn tracking_parameters_fragments_slashes_and_schemes_do_not_tell_pages_apart() {
        let page = normalize("https://en.wikipedia.org/wiki/Eiffel_Tower");
        for spelling in [
            "https://en.wikipedia.org/wiki/Eiffel_Tower?utm_source=openai",
            "http://en.wikipedia.org/wiki/Eiffel_Tower/",
            "https://EN.Wikipedia.org:443/wiki/Eiffel_Tower#History",
            "HTTPS://en.wikipedia.org/wiki/Eiffel_Tower?utm_medium=x&fbclid=abc",
        ] {
            assert_eq!(normalize(spelling), page, "{spelling}");
        }
        assert_eq!(
            normalize("https://www.toureiffel.paris/en/"),
            normalize("https://toureiffel.paris/en")
        );
        assert_eq!(
            normalize("https://example.com/").as_deref(),
            Some("example.com")
        );
    }

    #[test]
    fn what_names_another_page_is_kept() {
        assert_ne!(
            normalize("https://example.com/a?id=1"),
            normalize("https://example.com/a?id=2")
        );
        assert_ne!(
            normalize("https://example.com/Paris"),
            normalize("https://example.com/paris")
        );
        assert_eq!(
            normalize("https://example.com/a?utm_source=x&id=1&gclid=y#top").as_deref(),
            Some("example.com/a?id=1")
        );
    }

    #[test]
    fn only_web_addresses_have_a_normal_form() {
        for label in [
            "doc2",
            "report.pdf",
            "ftp://example.com/a",
            "https://",
            "file:///a",
        ] {
            assert_eq!(normalize(label), None, "{label}");
        }
    }
}
