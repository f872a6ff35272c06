//! The JUnit schema of Jenkins' xUnit plugin (`junit-10.xsd`), ported to a check: which
//! elements may stand where, which attributes each may and must have, and the form of `time`
//! (its `SUREFIRE_TIME` type). A document it accepts is valid against that schema in what
//! ragcite writes (elements, attributes, nesting; text content is free there).

/// Attributes of each element: (allowed, required).
fn attributes(element: &str) -> Option<(&'static [&'static str], &'static [&'static str])> {
    Some(match element {
        "testsuites" => (&["name", "time", "tests", "failures", "errors"], &[]),
        "testsuite" => (
            &[
                "name",
                "tests",
                "failures",
                "errors",
                "group",
                "time",
                "skipped",
                "timestamp",
                "hostname",
                "id",
                "package",
                "file",
                "log",
                "url",
            ],
            &["name", "tests", "failures", "errors"],
        ),
        "testcase" => (&["name", "time", "classname", "group"], &["name"]),
        "failure" | "error" | "skipped" => (&["type", "message"], &[]),
        "properties" => (&[], &[]),
        "property" => (&["name", "value"], &["name", "value"]),
        "system-out" | "system-err" => (&[], &[]),
        _ => return None,
    })
}

/// Elements each element may hold.
fn children(element: &str) -> &'static [&'static str] {
    match element {
        "testsuites" => &["testsuite"],
        "testsuite" => &[
            "testsuite",
            "properties",
            "testcase",
            "system-out",
            "system-err",
        ],
        "testcase" => &["skipped", "error", "failure", "system-out", "system-err"],
        "properties" => &["property"],
        _ => &[],
    }
}

/// `SUREFIRE_TIME`: `(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?`, here without the
/// thousands separators (which ragcite never writes): digits, then optionally a point and
/// digits.
fn is_surefire_time(value: &str) -> bool {
    let (whole, fraction) = value.split_once('.').unwrap_or((value, ""));
    whole.bytes().all(|b| b.is_ascii_digit()) && fraction.bytes().all(|b| b.is_ascii_digit())
}

/// The problems of a document against the schema; empty when it is valid.
pub fn problems(xml: &str) -> Vec<String> {
    let document = match roxmltree::Document::parse(xml) {
        Ok(document) => document,
        Err(e) => return vec![format!("not well-formed XML: {e}")],
    };
    let root = document.root_element();
    let mut problems = Vec::new();
    if !matches!(root.tag_name().name(), "testsuites" | "testsuite") {
        problems.push(format!("root element <{}>", root.tag_name().name()));
    }
    for node in root.descendants().filter(|n| n.is_element()) {
        let name = node.tag_name().name();
        let Some((allowed, required)) = attributes(name) else {
            problems.push(format!("unknown element <{name}>"));
            continue;
        };
        for attribute in node.attributes() {
            if !allowed.contains(&attribute.name()) {
                problems.push(format!("<{name}> may not have `{}`", attribute.name()));
            }
            if attribute.name() == "time"
                && matches!(name, "testsuite" | "testsuites")
                && !is_surefire_time(attribute.value())
            {
                problems.push(format!("<{name}> time `{}`", attribute.value()));
            }
        }
        for key in required {
            if node.attribute(*key).is_none() {
                problems.push(format!("<{name}> lacks `{key}`"));
            }
        }
        for child in node.children().filter(|n| n.is_element()) {
            let child_name = child.tag_name().name();
            if !children(name).contains(&child_name) {
                problems.push(format!("<{child_name}> inside <{name}>"));
            }
        }
    }
    problems
}
