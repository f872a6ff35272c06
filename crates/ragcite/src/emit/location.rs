//! Where findings are, as the CI consumers want their files named: paths relative to the
//! project's root (the nearest folder above the working directory that holds `.git`, else the
//! working directory), with forward slashes and no `.` or `..` in them; absolute, when the file
//! lies outside the project; and SARIF URIs made from those.

use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

/// What standard input is called when it was given no name.
pub const STDIN: &str = "<stdin>";

/// The base id of SARIF URIs relative to the project's root (GitHub's name for it).
pub const SRCROOT: &str = "%SRCROOT%";

/// The project's root: the nearest folder at or above the working directory that holds a
/// `.git` (a folder, or the file of a worktree), else the working directory; `None` when the
/// working directory cannot be read.
pub fn project_root() -> Option<&'static Path> {
    static ROOT: OnceLock<Option<PathBuf>> = OnceLock::new();
    ROOT.get_or_init(|| {
        let cwd = std::env::current_dir().ok()?;
        let root = cwd
            .ancestors()
            .find(|dir| dir.join(".git").exists())
            .unwrap_or(&cwd)
            .to_path_buf();
        Some(root)
    })
    .as_deref()
}

/// The working directory, as SARIF's `workingDirectory` gives it.
pub fn working_directory() -> Option<PathBuf> {
    std::env::current_dir().ok()
}

/// How CI formats name a file: relative to the project's root when it lies inside it, else
/// absolute; `.` and `..` resolved without touching the file system (`a/../b` is `b`); forward
/// slashes. Standard input's name (`<stdin>`) stays as it is; an empty name becomes it.
pub fn display_path(path: &str) -> String {
    if path.is_empty() || path == STDIN {
        return STDIN.to_string();
    }
    let given = Path::new(path);
    let absolute = if given.is_absolute() {
        given.to_path_buf()
    } else {
        match std::env::current_dir() {
            Ok(cwd) => cwd.join(given),
            Err(_) => return slashes(&normalise(given)),
        }
    };
    let absolute = normalise(&absolute);
    match project_root().and_then(|root| absolute.strip_prefix(root).ok()) {
        Some(relative) if !relative.as_os_str().is_empty() => slashes(relative),
        _ => slashes(&absolute),
    }
}

/// `path` with `.` dropped and each `..` taking away the name before it (a `..` with nothing
/// before it, or above the root, stays or is dropped as a path resolution would).
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                let last = out.components().next_back();
                match last {
                    Some(Component::Normal(_)) => {
                        out.pop();
                    }
                    Some(Component::RootDir | Component::Prefix(_)) => {}
                    _ => out.push(".."),
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

fn slashes(path: &Path) -> String {
    let text = path.to_string_lossy();
    if std::path::MAIN_SEPARATOR == '\\' {
        text.replace('\\', "/")
    } else {
        text.into_owned()
    }
}

/// Whether a displayed path is absolute: `/x`, or a Windows drive and a separator (`C:/x`;
/// `c:olon.jsonl` is a relative file name).
pub fn is_absolute(display: &str) -> bool {
    let bytes = display.as_bytes();
    display.starts_with('/')
        || (bytes.len() >= 3
            && bytes[0].is_ascii_alphabetic()
            && bytes[1] == b':'
            && matches!(bytes[2], b'/' | b'\\'))
}

/// A displayed path as a SARIF `artifactLocation`: a relative URI reference against
/// [`SRCROOT`] (the base id is then returned too), or a `file://` URI for a file outside the
/// project. Both are percent-encoded; standard input is the relative name `%3Cstdin%3E`.
pub fn sarif_uri(display: &str) -> (String, Option<&'static str>) {
    let absolute = is_absolute(display);
    let mut uri = String::new();
    if absolute {
        uri.push_str(if display.starts_with('/') {
            "file://"
        } else {
            "file:///"
        });
    }
    uri.push_str(&percent_encode(display, absolute));
    (uri, (!absolute).then_some(SRCROOT))
}

/// A folder as an absolute `file://` URI ending in `/`, as SARIF's base URIs must.
pub fn folder_uri(folder: &Path) -> String {
    let display = slashes(folder);
    let mut uri = if display.starts_with('/') {
        "file://".to_string()
    } else {
        "file:///".to_string()
    };
    uri.push_str(&percent_encode(&display, true));
    if !uri.ends_with('/') {
        uri.push('/');
    }
    uri
}

/// Percent-encodes everything but unreserved characters, sub-delimiters, `/` and `@` (RFC 3986
/// path characters), and `:` only after a drive letter of an absolute Windows path (a `:` in
/// the first segment of a relative reference would read as a scheme).
fn percent_encode(text: &str, absolute: bool) -> String {
    let windows_drive = absolute && !text.starts_with('/');
    let mut out = String::with_capacity(text.len());
    for (i, byte) in text.bytes().enumerate() {
        let keep = byte.is_ascii_alphanumeric()
            || b"-._~/!$&'()*+,;=@".contains(&byte)
            || (windows_drive && i == 1);
        if keep {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_relative_to_the_project_normalised_with_forward_slashes() {
        let root = project_root().expect("a working directory");
        let cwd = std::env::current_dir().expect("a working directory");
        let here = cwd
            .strip_prefix(root)
            .expect("the root holds the working directory");
        let inside = |rel: &str| slashes(&here.join(rel));
        assert_eq!(display_path("./a/b.md"), inside("a/b.md"));
        assert_eq!(display_path("a/../b.md"), inside("b.md"));
        assert_eq!(display_path("a/./b/../c.md"), inside("a/c.md"));
        assert_eq!(display_path(""), "<stdin>");
        assert_eq!(display_path("<stdin>"), "<stdin>");
        assert_eq!(display_path("c:olon.jsonl"), inside("c:olon.jsonl"));
        let absolute = cwd.join("x").join("y.md");
        assert_eq!(
            display_path(absolute.to_str().expect("UTF-8")),
            inside("x/y.md")
        );
        // Outside the project: absolute.
        assert_eq!(
            display_path("/nowhere/../elsewhere/z.md"),
            "/elsewhere/z.md"
        );
        let above = root.parent().map(|p| slashes(&p.join("z.md")));
        if let Some(above) = above {
            let relative_up = "../".repeat(here.components().count() + 1) + "z.md";
            assert_eq!(display_path(&relative_up), above);
        }
    }

    #[test]
    fn sarif_uris_are_relative_to_the_source_root_or_file_uris() {
        assert_eq!(
            sarif_uri("a b/ü.md"),
            ("a%20b/%C3%BC.md".to_string(), Some(SRCROOT))
        );
        assert_eq!(
            sarif_uri("<stdin>"),
            ("%3Cstdin%3E".to_string(), Some(SRCROOT))
        );
        assert_eq!(
            sarif_uri("c:olon.jsonl"),
            ("c%3Aolon.jsonl".to_string(), Some(SRCROOT))
        );
        assert_eq!(
            sarif_uri("/abs/x:y.md"),
            ("file:///abs/x%3Ay.md".to_string(), None)
        );
        assert_eq!(sarif_uri("C:/x.md"), ("file:///C:/x.md".to_string(), None));
        assert_eq!(folder_uri(Path::new("/work/a b")), "file:///work/a%20b/");
        assert!(!is_absolute("c:olon.jsonl"));
        assert!(is_absolute("C:\\x.md") && is_absolute("/x"));
    }
}
